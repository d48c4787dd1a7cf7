import { type EmployeeImportResult, LANGUAGES, type Language } from '@werkwissen/shared';
import { parse } from 'csv-parse/sync';
import { AppError } from '../../core/app-error.ts';
import { translate } from '../../i18n/translator.ts';

/** At most this many rows per import file. */
export const MAX_IMPORT_ROWS = 1000;

export type ImportRejection = EmployeeImportResult['rejected'][number];

const refuse = (lang: Language, code: string) =>
  new AppError('VALIDATION_FAILED', { fields: [{ field: 'csv', code, message: translate(lang, code) }] });

/**
 * The header names an import understands, lower-cased, to the field they fill: each column's own name and its header
 * in every language (what the table's export and the template write, so a file exported in any language comes back
 * in), and `also` (older names: "Vorname", "WhatsApp").
 */
export function importHeaders(columns: Record<string, string>, also: Record<string, string> = {}) {
  const names: Record<string, string> = { ...also };
  for (const [field, key] of Object.entries(columns)) {
    for (const name of [field, ...LANGUAGES.map((lang) => translate(lang, key))].map((n) =>
      n.toLowerCase(),
    )) {
      // Two columns under one header in some language would fill the wrong field: a translation to change.
      if (names[name] && names[name] !== field)
        throw new Error(`CSV header "${name}" names ${names[name]} and ${field}`);
      names[name] = field;
    }
  }
  return names;
}

/**
 * The rows of an import file as records keyed by field: the header row names the columns (`headers` maps the names
 * we understand, lower-cased, to fields); comma, semicolon or tab separated. An unreadable file, a header without
 * the `required` fields or too many rows refuse the whole file.
 */
export function readCsvRows(
  csv: string,
  lang: Language,
  headers: Record<string, string>,
  required: string[],
): Array<Record<string, string>> {
  let rows: Array<Record<string, string>>;
  try {
    rows = parse(csv, {
      bom: true,
      columns: (header: string[]) => header.map((h) => headers[h.trim().toLowerCase()] ?? h.trim()),
      delimiter: [',', ';', '\t'],
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    });
  } catch {
    throw refuse(lang, 'validation.csvUnreadable');
  }
  const first = rows[0];
  if (!first || required.some((field) => !(field in first))) throw refuse(lang, 'validation.csvHeader');
  if (rows.length > MAX_IMPORT_ROWS) throw refuse(lang, 'validation.csvTooManyRows');
  return rows;
}

/** A row's schema failures as the import report's errors. */
export function schemaErrors(
  lang: Language,
  issues: Array<{ path: PropertyKey[]; message: string }>,
): ImportRejection['errors'] {
  return issues.map((issue) => {
    const code = issue.message.startsWith('validation.') ? issue.message : 'validation.invalid';
    return { field: String(issue.path[0] ?? 'row'), code, message: translate(lang, code) };
  });
}

/** A service's refusal of a row (an address in use, a limit) as the import report's error. */
export function refusalError(lang: Language, error: unknown): ImportRejection['errors'][number] {
  if (!(error instanceof AppError)) throw error;
  const field = typeof error.details?.field === 'string' ? error.details.field : 'row';
  // Plain values of the details fill the message's placeholders, as in an error body (e.g. a plan limit's {{max}}).
  const vars = Object.fromEntries(
    Object.entries(error.details ?? {}).filter(([, v]) => typeof v === 'number' || typeof v === 'string'),
  );
  return { field, code: `errors.${error.code}`, message: translate(lang, `errors.${error.code}`, vars) };
}
