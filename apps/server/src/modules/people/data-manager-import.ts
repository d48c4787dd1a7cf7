import {
  createDataManagerBodySchema,
  DATA_MANAGER_CSV_COLUMNS,
  type EmployeeImportResult,
  type Language,
} from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { importedPhone, phoneCountryOf } from '../../core/person-phone.ts';
import {
  type ImportRejection,
  importHeaders,
  readCsvRows,
  refusalError,
  schemaErrors,
} from '../csv-import/csv-rows.ts';
import { assertMayAddDataManagers, createDataManager } from './data-managers.service.ts';

/** Header names we understand: each column's in every language, and older English and German names. */
const HEADERS = importHeaders(DATA_MANAGER_CSV_COLUMNS, {
  'e-mail': 'email',
  'e-mail-adresse': 'email',
  'first name': 'firstName',
  vorname: 'firstName',
  'last name': 'lastName',
  nachname: 'lastName',
  telefon: 'phone',
  whatsapp: 'phone',
  sprache: 'language',
  company: 'companyName',
  'company name': 'companyName',
  firma: 'companyName',
  unternehmen: 'companyName',
});

/**
 * Adds the data managers of a CSV file row by row, each with its company, trial and invitation: a row is checked
 * with the same schema as the form; a bad row, or one whose address is in use (also a second import of the same
 * file), is reported with its line and reasons while the others are added.
 */
export async function importDataManagers(
  ctx: AppContext,
  actor: Actor,
  csv: string,
  lang: Language,
): Promise<EmployeeImportResult> {
  assertMayAddDataManagers(actor);
  const rows = readCsvRows(csv, lang, HEADERS, ['email', 'firstName', 'lastName', 'companyName']);
  const country = await phoneCountryOf(ctx, actor);
  const rejected: ImportRejection[] = [];
  let created = 0;
  for (const [index, row] of rows.entries()) {
    const line = index + 2; // the header is line 1
    const parsed = createDataManagerBodySchema.safeParse({
      email: row.email ?? '',
      firstName: row.firstName ?? '',
      lastName: row.lastName ?? '',
      phone: importedPhone(row.phone, country),
      language: row.language || actor.language,
      companyName: row.companyName ?? '',
    });
    if (!parsed.success) {
      rejected.push({ row: line, email: row.email || null, errors: schemaErrors(lang, parsed.error.issues) });
      continue;
    }
    try {
      await createDataManager(ctx, actor, parsed.data);
      created++;
    } catch (error) {
      rejected.push({ row: line, email: row.email || null, errors: [refusalError(lang, error)] });
    }
  }
  return { created, rejected };
}
