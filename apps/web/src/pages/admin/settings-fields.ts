import { type SettingsTab, type SettingsValues, settingsTabSchemas } from '@werkwissen/shared';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { ApiError } from '../../api/http.ts';

export type FieldKind = 'text' | 'url' | 'language' | 'switch' | 'number' | 'color';

/** The fields of each settings tab, in the order shown, and how each is entered. */
export const TAB_FIELDS: { [T in SettingsTab]: Array<{ name: string; kind: FieldKind }> } = {
  general: [
    { name: 'appTitle', kind: 'text' },
    { name: 'publicUrl', kind: 'url' },
    { name: 'defaultLanguage', kind: 'language' },
  ],
  signUp: [
    { name: 'signupEnabled', kind: 'switch' },
    { name: 'botProtection', kind: 'switch' },
    { name: 'ipCountryLookup', kind: 'switch' },
  ],
  plans: [
    { name: 'divisionsLimit', kind: 'number' },
    { name: 'employeesLimit', kind: 'number' },
    { name: 'storageLimitMb', kind: 'number' },
    { name: 'trialDays', kind: 'number' },
  ],
  branding: [
    { name: 'primaryColor', kind: 'color' },
    { name: 'primaryColorDark', kind: 'color' },
    { name: 'surfaceLight', kind: 'color' },
    { name: 'surfaceDark', kind: 'color' },
  ],
  activityLog: [{ name: 'retentionDays', kind: 'number' }],
  mailBudget: [
    { name: 'perHour', kind: 'number' },
    { name: 'perDay', kind: 'number' },
    { name: 'trialPerHour', kind: 'number' },
    { name: 'trialPerDay', kind: 'number' },
  ],
};

/** A form's values as the inputs hold them: numbers as typed text, switches as booleans. */
export type FormValues = Record<string, string | boolean>;

export const toFormValues = (values: Record<string, unknown>): FormValues =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'boolean' ? v : String(v)]));

/** The request body: typed numbers become numbers (an empty field stays a refusal, never 0). */
function toBody(tab: SettingsTab, values: FormValues): Record<string, unknown> {
  return Object.fromEntries(
    TAB_FIELDS[tab].map(({ name, kind }) => {
      const v = values[name];
      return [name, kind === 'number' ? (v === '' ? Number.NaN : Number(v)) : v];
    }),
  );
}

/** Each tab's schema, typed by the values it gives (so a tab's check hands over that tab's values). */
const TAB_SCHEMAS: { [T in SettingsTab]: z.ZodType<SettingsValues[T]> } = settingsTabSchemas;

/**
 * A tab's form checked by the tab's shared schema: the values to send, or the problems as translated messages per
 * field, with the bounds they name.
 */
export function checkTab<T extends SettingsTab>(
  tab: T,
  values: FormValues,
  t: TFunction,
): { values: SettingsValues[T] } | { errors: Record<string, string> } {
  const parsed = TAB_SCHEMAS[tab].safeParse(toBody(tab, values));
  if (parsed.success) return { values: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    const bounds = issue as { minimum?: unknown; maximum?: unknown };
    errors[field] ??= t(issue.message, { minimum: bounds.minimum, maximum: bounds.maximum });
  }
  return { errors };
}

/** The server's per-field messages of a refused save (already in the interface language). */
export function serverErrors(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.fieldErrors.length === 0) return null;
  return Object.fromEntries(error.fieldErrors.map((f) => [f.field, f.message]));
}
