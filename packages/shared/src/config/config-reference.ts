import { z } from 'zod';
import { CONFIG_DEFAULTS } from './config.defaults.ts';
import { type ConfigKey, configShape } from './config.schema.ts';

/**
 * The README's configuration reference, generated from `configShape` (descriptions) and `CONFIG_DEFAULTS`.
 * `npm run docs:config` (scripts/write-config-reference.ts) writes it between the marker lines below, and
 * config-reference.test.ts fails when the README's copy is out of date.
 */
export const CONFIG_REFERENCE_START = '<!-- config-reference:start -->';
export const CONFIG_REFERENCE_END = '<!-- config-reference:end -->';

/** A field's description; `.optional()` after `.describe()` hides it on the wrapper, so look inside. */
export function configDescription(key: ConfigKey): string | undefined {
  let schema: z.ZodType = configShape[key];
  while (schema.description === undefined && schema instanceof z.ZodOptional)
    schema = schema.unwrap() as z.ZodType;
  return schema.description;
}

/** Makes text safe inside one table cell. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

/** The Markdown table (no trailing newline): every configuration key in declaration order. */
export function configReferenceMarkdown(): string {
  const defaults: Readonly<Record<string, string>> = CONFIG_DEFAULTS;
  const rows = (Object.keys(configShape) as ConfigKey[]).map((key) => {
    const description = configDescription(key);
    if (!description) throw new Error(`configShape.${key} has no description (add .describe(...))`);
    const fallback = defaults[key];
    const shownDefault = fallback === undefined ? '—' : `\`${cell(fallback)}\``;
    return `| \`${key}\` | ${shownDefault} | ${cell(description)} |`;
  });
  return ['| Variable | Default | Description |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The whole section as written into the README, markers included (no trailing newline). */
export function configReferenceSection(): string {
  return `${CONFIG_REFERENCE_START}\n\n${configReferenceMarkdown()}\n\n${CONFIG_REFERENCE_END}`;
}

/**
 * What stands between the marker lines of a README (trimmed), or an error text when the markers are missing,
 * repeated or out of order.
 */
export function readConfigReference(
  readme: string,
): { ok: true; table: string } | { ok: false; error: string } {
  const text = readme.replace(/\r\n/g, '\n');
  const starts = text.split(CONFIG_REFERENCE_START).length - 1;
  const ends = text.split(CONFIG_REFERENCE_END).length - 1;
  if (starts !== 1 || ends !== 1) {
    return {
      ok: false,
      error: `expected one "${CONFIG_REFERENCE_START}" and one "${CONFIG_REFERENCE_END}" line, found ${starts} and ${ends}`,
    };
  }
  const from = text.indexOf(CONFIG_REFERENCE_START) + CONFIG_REFERENCE_START.length;
  const to = text.indexOf(CONFIG_REFERENCE_END);
  if (to < from)
    return { ok: false, error: `"${CONFIG_REFERENCE_END}" comes before "${CONFIG_REFERENCE_START}"` };
  return { ok: true, table: text.slice(from, to).trim() };
}

/**
 * The README with its configuration reference replaced by the current one; the section is appended at the end
 * when the README has no markers yet. Throws when the markers are damaged (one missing, repeated or out of order).
 */
export function updateConfigReference(readme: string): string {
  const hasStart = readme.includes(CONFIG_REFERENCE_START);
  const hasEnd = readme.includes(CONFIG_REFERENCE_END);
  if (!hasStart && !hasEnd) {
    const body = readme.replace(/\s+$/, '');
    return `${body}${body ? '\n\n' : ''}${configReferenceSection()}\n`;
  }
  const current = readConfigReference(readme);
  if (!current.ok) throw new Error(`README.md: ${current.error}; fix the marker lines by hand`);
  const from = readme.indexOf(CONFIG_REFERENCE_START);
  const to = readme.indexOf(CONFIG_REFERENCE_END) + CONFIG_REFERENCE_END.length;
  return `${readme.slice(0, from)}${configReferenceSection()}${readme.slice(to)}`;
}
