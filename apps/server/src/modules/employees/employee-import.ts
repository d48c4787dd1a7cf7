import { createEmployeeBodySchema, EMPLOYEE_CSV_COLUMNS, type Language } from '@werkwissen/shared';
import { and, eq } from 'drizzle-orm';
import { divisionAccess } from '../../access/division.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { importedPhone, phoneCountryOf } from '../../core/person-phone.ts';
import { divisions } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import {
  type ImportRejection,
  importHeaders,
  readCsvRows,
  refusalError,
  schemaErrors,
} from '../csv-import/csv-rows.ts';
import { createEmployee } from './employees.service.ts';

/** Header names we understand: each column's in every language, and older English and German names. */
const HEADERS = importHeaders(EMPLOYEE_CSV_COLUMNS, {
  'e-mail': 'email',
  'e-mail-adresse': 'email',
  'first name': 'firstName',
  vorname: 'firstName',
  'last name': 'lastName',
  nachname: 'lastName',
  telefon: 'phone',
  whatsapp: 'phone',
  sprache: 'language',
  bereiche: 'divisions',
});

/**
 * Adds the employees of a CSV file row by row; each row is checked with the same schema as the form, and a rejected
 * row is reported with its reasons while the others are added (and invited). Once the company's mail budget is
 * spent, the remaining rows are reported with that refusal (nothing of theirs is written), to be imported again later.
 */
export async function importEmployees(ctx: AppContext, actor: Actor, csv: string, lang: Language) {
  const companyId = homeCompany(actor);
  const rows = readCsvRows(csv, lang, HEADERS, ['email', 'firstName', 'lastName']);
  const country = await phoneCountryOf(ctx, actor);
  const known = await ctx.db
    .select({ id: divisions.id, name: divisions.name })
    .from(divisions)
    .where(and(eq(divisions.companyId, companyId), divisionAccess.where(actor, 'read')));
  const byName = new Map(known.map((d) => [d.name.toLowerCase(), d.id]));
  const rejected: ImportRejection[] = [];
  let created = 0;
  let budgetSpent: AppError | null = null;
  for (const [index, row] of rows.entries()) {
    const rowNumber = index + 2; // the header is row 1
    const errors: ImportRejection['errors'] = [];
    const divisionIds: string[] = [];
    for (const name of (row.divisions ?? '')
      .split(/[|;]/)
      .map((n) => n.trim())
      .filter(Boolean)) {
      const id = byName.get(name.toLowerCase());
      if (id) divisionIds.push(id);
      else
        errors.push({
          field: 'divisions',
          code: 'validation.unknownDivision',
          message: translate(lang, 'validation.unknownDivision', { name }),
        });
    }
    const parsed = createEmployeeBodySchema.safeParse({
      email: row.email ?? '',
      firstName: row.firstName ?? '',
      lastName: row.lastName ?? '',
      phone: importedPhone(row.phone, country),
      language: row.language || actor.language,
      divisionIds,
    });
    if (!parsed.success) errors.push(...schemaErrors(lang, parsed.error.issues));
    if (errors.length > 0 || !parsed.success) {
      rejected.push({ row: rowNumber, email: row.email || null, errors });
      continue;
    }
    try {
      if (budgetSpent) throw budgetSpent;
      await createEmployee(ctx, actor, parsed.data);
      created++;
    } catch (error) {
      if (error instanceof AppError && error.code === 'MAIL_BUDGET_EXCEEDED') budgetSpent = error;
      rejected.push({ row: rowNumber, email: row.email || null, errors: [refusalError(lang, error)] });
    }
  }
  return { created, rejected };
}
