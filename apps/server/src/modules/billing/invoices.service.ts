import type { Invoice } from '@werkwissen/shared';
import { invoiceAccess } from '../../access/invoice.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';
import { type InvoiceRow, invoiceById, invoicePage } from './invoices.queries.ts';

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

/** The invoices the actor may read (their company's; every company's for the operator), newest first, a page. */
export async function listInvoices(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; companyId?: string },
) {
  const { items, total } = await invoicePage(ctx.db, invoiceAccess.where(actor, 'read'), query);
  return { items: items.map(presentInvoice), total, page: query.page, pageSize: query.pageSize };
}

/** One invoice the actor may read (else 404, also for another company's). */
export async function loadInvoice(ctx: AppContext, actor: Actor, invoiceId: string): Promise<InvoiceRow> {
  const row = await invoiceById(ctx.db, invoiceId, invoiceAccess.where(actor, 'read'));
  if (!row) throw notFound();
  return row;
}
