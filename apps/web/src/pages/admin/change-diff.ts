/** One value a change touched: its path in the object (`branding.primaryColor`), before and after. */
export interface ChangedValue {
  path: string;
  before: unknown;
  after: unknown;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The values that differ between `before` and `after`, nested objects walked down to their leaves (arrays and other
 * values compared as JSON), in the order of their keys; a value only on one side is `undefined` on the other.
 */
export function changedValues(before: unknown, after: unknown, prefix = ''): ChangedValue[] {
  if (isPlainObject(before) || isPlainObject(after)) {
    const a = isPlainObject(before) ? before : {};
    const b = isPlainObject(after) ? after : {};
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    // A side that is no object at all (null: nothing before) is shown whole rather than as missing keys.
    if ((!isPlainObject(before) && before != null) || (!isPlainObject(after) && after != null)) {
      return [{ path: prefix, before, after }];
    }
    return keys.flatMap((k) => changedValues(a[k], b[k], prefix ? `${prefix}.${k}` : k));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path: prefix, before, after }];
}

/** A value as the diff shows it: text as it is, anything else as JSON, nothing as an empty string. */
export const shownValue = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
