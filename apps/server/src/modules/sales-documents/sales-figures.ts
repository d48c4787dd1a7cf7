import type { Dashboard } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import { salesDocumentAccess } from '../../access/sales-document.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { openSql, overdueSql } from './sales-document-view.ts';

/**
 * The dashboard's figures of offers and invoices: issued or sent offers not yet accepted (an offer an order
 * confirmation or invoice was made from is accepted, so its amount is not counted twice), issued or sent invoices
 * not yet paid, and of those the overdue ones (what is left to pay: a final invoice less its down payments). Null
 * for a caller who may not read the company's documents.
 */
export async function salesFigures(ctx: AppContext, actor: Actor): Promise<Dashboard['sales']> {
  if (!actor.ability.can('read', 'SalesDocument')) return null;
  const openOffer = sql`(sales_documents.type = 'offer' and ${openSql})`;
  const unpaid = sql`(sales_documents.type = 'invoice' and ${openSql})`;
  const due = sql`(gross_cents - prepaid_cents)`;
  const { rows } = await ctx.db.execute<Record<string, string | null>>(sql`
    select count(*) filter (where ${openOffer}) as open_offers,
           coalesce(sum(gross_cents) filter (where ${openOffer}), 0) as open_offers_cents,
           count(*) filter (where ${unpaid}) as unpaid,
           coalesce(sum(${due}) filter (where ${unpaid}), 0) as unpaid_cents,
           count(*) filter (where ${overdueSql}) as overdue,
           coalesce(sum(${due}) filter (where ${overdueSql}), 0) as overdue_cents
    from sales_documents where ${salesDocumentAccess.where(actor, 'read')}`);
  const r = rows[0] ?? {};
  return {
    openOffers: Number(r.open_offers ?? 0),
    openOffersCents: Number(r.open_offers_cents ?? 0),
    unpaidInvoices: Number(r.unpaid ?? 0),
    unpaidCents: Number(r.unpaid_cents ?? 0),
    overdueInvoices: Number(r.overdue ?? 0),
    overdueCents: Number(r.overdue_cents ?? 0),
  };
}
