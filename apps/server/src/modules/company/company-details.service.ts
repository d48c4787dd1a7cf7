import type { CompanyDetailGap, CompanyDetails, companyDetailsBodySchema } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { ownCompany } from '../../access/company.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { companies, companyDetails, users } from '../../db/schema/index.ts';

type Body = z.output<typeof companyDetailsBodySchema>;

/** Germany's standard VAT rate: what a company of our first market starts with until it says otherwise. */
const DEFAULT_TAX_RATE = 19;

const OPTIONAL = [
  'website',
  'street',
  'postalCode',
  'city',
  'phone',
  'email',
  'vatId',
  'taxNumber',
  'registerNumber',
  'registryCourt',
  'managingDirector',
  'iban',
  'bic',
] as const;

type Text = Record<(typeof OPTIONAL)[number] | 'name', string>;

/** What an invoice and its e-invoice still need of these details (`COMPANY_DETAIL_GAPS` says why each). */
export function detailGaps(d: Text): CompanyDetailGap[] {
  const gaps: [CompanyDetailGap, boolean][] = [
    ['name', Boolean(d.name)],
    ['address', Boolean(d.street && d.postalCode && d.city)],
    ['taxId', Boolean(d.vatId || d.taxNumber)],
    ['legalId', Boolean(d.vatId || d.registerNumber)],
    ['email', Boolean(d.email)],
    ['phone', Boolean(d.phone)],
    ['iban', Boolean(d.iban)],
  ];
  return gaps.filter(([, given]) => !given).map(([gap]) => gap);
}

function present(
  name: string | null,
  row: typeof companyDetails.$inferSelect | undefined,
  fallbackCountry: string,
): CompanyDetails {
  const text = Object.fromEntries(OPTIONAL.map((k) => [k, row?.[k] ?? ''])) as Record<
    (typeof OPTIONAL)[number],
    string
  >;
  const details = {
    name: name ?? '',
    ...text,
    country: row?.country ?? fallbackCountry,
    standardTaxRate: row ? Number(row.standardTaxRate) : DEFAULT_TAX_RATE,
    smallBusiness: row?.smallBusiness ?? false,
  };
  const missing = detailGaps(details);
  return {
    ...details,
    missing,
    complete: missing.length === 0,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/** The caller's company's master data; before the first save, its name and the data manager's country. */
export async function getCompanyDetails(ctx: AppContext, actor: Actor): Promise<CompanyDetails> {
  const companyId = ownCompany(actor, 'read');
  const [[company], [row], [user]] = await Promise.all([
    ctx.db.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId)),
    ctx.db.select().from(companyDetails).where(eq(companyDetails.companyId, companyId)),
    ctx.db.select({ country: users.country }).from(users).where(eq(users.id, actor.userId)),
  ]);
  return present(company?.name ?? null, row, user?.country ?? 'DE');
}

/** Saves the caller's company's master data and name; empty optional fields are stored as not given. */
export async function saveCompanyDetails(ctx: AppContext, actor: Actor, body: Body): Promise<CompanyDetails> {
  const companyId = ownCompany(actor, 'update');
  const values = {
    ...Object.fromEntries(OPTIONAL.map((k) => [k, body[k] || null])),
    country: body.country,
    standardTaxRate: body.standardTaxRate.toFixed(2),
    smallBusiness: body.smallBusiness,
    updatedAt: new Date(),
  };
  const row = await ctx.db.transaction(async (tx) => {
    await tx
      .update(companies)
      .set({ name: body.name, updatedAt: new Date() })
      .where(eq(companies.id, companyId));
    const [saved] = await tx
      .insert(companyDetails)
      .values({ companyId, ...values })
      .onConflictDoUpdate({ target: companyDetails.companyId, set: values })
      .returning();
    return saved!;
  });
  return present(body.name, row, body.country);
}
