import type { Dashboard } from '@werkwissen/shared';
import { salesDocumentAccess } from '../../access/sales-document.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { salesFigureTotals } from './sales-documents.queries.ts';

/**
 * The dashboard's figures of offers and invoices: issued or sent offers not yet accepted (an offer an order
 * confirmation or invoice was made from is accepted, so its amount is not counted twice), issued or sent invoices
 * not yet paid, and of those the overdue ones (what is left to pay: a final invoice less its down payments). Null
 * for a caller who may not read the company's documents.
 */
export async function salesFigures(ctx: AppContext, actor: Actor): Promise<Dashboard['sales']> {
  if (!actor.ability.can('read', 'SalesDocument')) return null;
  return salesFigureTotals(ctx.db, salesDocumentAccess.where(actor, 'read'));
}
