import type { Invoice } from '@werkwissen/shared';
import { and, desc, eq } from 'drizzle-orm';
import { invoiceAccess } from '../../access/invoice.access.ts';
import type { AppContext } from '../../app-context.ts';
import { companies, invoices } from '../../db/schema/index.ts';
import { notFound } from '../../http/app-error.ts';
import type { Actor } from '../auth/actor.ts';

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

/** The invoices the actor may read (their company's; every company's for the operator), newest first. */
export async function listInvoices(ctx: AppContext, actor: Actor, companyId?: string): Promise<Invoice[]> {
  const rows = await selection(ctx)
    .where(and(invoiceAccess.where(actor, 'read'), companyId ? eq(invoices.companyId, companyId) : undefined))
    .orderBy(desc(invoices.issuedAt))
    .limit(500);
  return rows.map((r) => presentInvoice({ ...r.invoice, companyName: r.companyName }));
}

/** One invoice the actor may read (else 404, also for another company's). */
export async function loadInvoice(ctx: AppContext, actor: Actor, invoiceId: string): Promise<InvoiceRow> {
  const [row] = await selection(ctx).where(
    and(eq(invoices.id, invoiceId), invoiceAccess.where(actor, 'read')),
  );
  if (!row) throw notFound();
  return { ...row.invoice, companyName: row.companyName };
}
