import type { Invoice } from '@werkwissen/shared';
import { and, count, desc, eq, or, sql } from 'drizzle-orm';
import { invoiceAccess } from '../../access/invoice.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';
import { companies, invoices } from '../../db/schema/index.ts';

export type InvoiceRow = typeof invoices.$inferSelect & { companyName: string | null };

export const presentInvoice = (row: InvoiceRow): Invoice => ({
  id: row.id,
  companyId: row.companyId,
  companyName: row.companyName,
  number: row.number,
  plan: row.plan,
  currency: row.currency,
  totalCents: row.totalCents,
  paidCents: row.paidCents,
  status: row.status,
  issuedAt: row.issuedAt.toISOString(),
  periodStart: row.periodStart?.toISOString() ?? null,
  periodEnd: row.periodEnd?.toISOString() ?? null,
  stripeInvoiceId: row.stripeInvoiceId,
});

const selection = (ctx: AppContext) =>
  ctx.db
    .select({ invoice: invoices, companyName: companies.name })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId));

/** The invoices the actor may read (their company's; every company's for the operator), newest first, a page. */
export async function listInvoices(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; companyId?: string },
) {
  const search = query.q ? `%${query.q.toLowerCase()}%` : null;
  const where = and(
    invoiceAccess.where(actor, 'read'),
    query.companyId ? eq(invoices.companyId, query.companyId) : undefined,
    search
      ? or(
          sql`lower(coalesce(${invoices.number}, '')) like ${search}`,
          sql`lower(coalesce(${companies.name}, '')) like ${search}`,
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    selection(ctx)
      .where(where)
      .orderBy(desc(invoices.issuedAt), desc(invoices.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db
      .select({ n: count() })
      .from(invoices)
      .innerJoin(companies, eq(companies.id, invoices.companyId))
      .where(where),
  ]);
  return {
    items: rows.map((r) => presentInvoice({ ...r.invoice, companyName: r.companyName })),
    total: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** One invoice the actor may read (else 404, also for another company's). */
export async function loadInvoice(ctx: AppContext, actor: Actor, invoiceId: string): Promise<InvoiceRow> {
  const [row] = await selection(ctx).where(
    and(eq(invoices.id, invoiceId), invoiceAccess.where(actor, 'read')),
  );
  if (!row) throw notFound();
  return { ...row.invoice, companyName: row.companyName };
}
