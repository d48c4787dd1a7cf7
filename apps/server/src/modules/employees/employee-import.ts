import { createEmployeeBodySchema, type EmployeeImportResult, type Language } from '@werkwissen/shared';
import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { divisionAccess } from '../../access/division.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import { divisions } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { translate } from '../../i18n/translator.ts';
import type { Actor } from '../auth/actor.ts';
import { createEmployee } from './employees.service.ts';

const MAX_ROWS = 1000;

/** Header names we understand, in English and German, to the field they fill. */
const HEADERS: Record<string, string> = {
  email: 'email',
  'e-mail': 'email',
  'e-mail-adresse': 'email',
  firstname: 'firstName',
  'first name': 'firstName',
  vorname: 'firstName',
  lastname: 'lastName',
  'last name': 'lastName',
  nachname: 'lastName',
  phone: 'phone',
  telefon: 'phone',
  whatsapp: 'phone',
  language: 'language',
  sprache: 'language',
  divisions: 'divisions',
  bereiche: 'divisions',
};

type Rejection = EmployeeImportResult['rejected'][number];

function readRows(csv: string, lang: Language): Array<Record<string, string>> {
  let rows: Array<Record<string, string>>;
  try {
    rows = parse(csv, {
      bom: true,
      columns: (header: string[]) => header.map((h) => HEADERS[h.trim().toLowerCase()] ?? h.trim()),
      delimiter: [',', ';', '\t'],
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    });
  } catch {
    throw new AppError('VALIDATION_FAILED', {
      fields: [
        {
          field: 'csv',
          code: 'validation.csvUnreadable',
          message: translate(lang, 'validation.csvUnreadable'),
        },
      ],
    });
  }
  const first = rows[0];
  if (!first || !('email' in first) || !('firstName' in first) || !('lastName' in first)) {
    throw new AppError('VALIDATION_FAILED', {
      fields: [
        { field: 'csv', code: 'validation.csvHeader', message: translate(lang, 'validation.csvHeader') },
      ],
    });
  }
  if (rows.length > MAX_ROWS) {
    throw new AppError('VALIDATION_FAILED', {
      fields: [
        {
          field: 'csv',
          code: 'validation.csvTooManyRows',
          message: translate(lang, 'validation.csvTooManyRows'),
        },
      ],
    });
  }
  return rows;
}

/**
 * Adds the employees of a CSV file row by row; each row is checked with the same schema as the form, and a rejected
 * row is reported with its reasons while the others are added (and invited).
 */
export async function importEmployees(ctx: AppContext, actor: Actor, csv: string, lang: Language) {
  const companyId = homeCompany(actor);
  const rows = readRows(csv, lang);
  const known = await ctx.db
    .select({ id: divisions.id, name: divisions.name })
    .from(divisions)
    .where(and(eq(divisions.companyId, companyId), divisionAccess.where(actor, 'read')));
  const byName = new Map(known.map((d) => [d.name.toLowerCase(), d.id]));
  const rejected: Rejection[] = [];
  let created = 0;
  for (const [index, row] of rows.entries()) {
    const rowNumber = index + 2; // the header is row 1
    const errors: Rejection['errors'] = [];
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
      phone: row.phone || undefined,
      language: row.language || actor.language,
      divisionIds,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const code = issue.message.startsWith('validation.') ? issue.message : 'validation.invalid';
        errors.push({ field: String(issue.path[0] ?? 'row'), code, message: translate(lang, code) });
      }
    }
    if (errors.length > 0 || !parsed.success) {
      rejected.push({ row: rowNumber, email: row.email || null, errors });
      continue;
    }
    try {
      await createEmployee(ctx, actor, parsed.data);
      created++;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const field = typeof error.details?.field === 'string' ? error.details.field : 'row';
      const vars = typeof error.details?.limit === 'number' ? { limit: error.details.limit } : undefined;
      rejected.push({
        row: rowNumber,
        email: row.email || null,
        errors: [
          { field, code: `errors.${error.code}`, message: translate(lang, `errors.${error.code}`, vars) },
        ],
      });
    }
  }
  return { created, rejected };
}
