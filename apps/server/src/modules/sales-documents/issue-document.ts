import { type Deduction, documentTotals, type SalesDocument, totalsProblem } from '@werkwissen/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import { customers, salesDocuments } from '../../db/schema/index.ts';
import { getCompanyDetails } from '../company/company-details.service.ts';
import { nextDocumentNumber } from './document-numbers.ts';
import { deductionOf, downPaymentsOf } from './down-payments.ts';
import { buyerOf, type DocumentRow, OPEN_STATUSES } from './sales-document-view.ts';
import { getSalesDocument, lockDraft, sellerOf } from './sales-documents.service.ts';

/** Why a draft's stored totals cannot be issued, or null. */
function issueProblem(row: DocumentRow): string | null {
  const fresh = documentTotals(row.lines);
  return totalsProblem(row.lines, {
    ...fresh,
    netCents: row.netCents,
    taxCents: row.taxCents,
    grossCents: row.grossCents,
  });
}

/**
 * What a final invoice deducts: its job's down payments, every one of them paid (an open one is DOWN_PAYMENT_OPEN:
 * mark it paid, or cancel it, first). A cancellation repeats its invoice's deductions.
 */
async function deductionsAtIssue(tx: DbOrTx, row: DocumentRow): Promise<Deduction[]> {
  if (row.type === 'creditNote') return row.deductions;
  if (row.type !== 'invoice' || row.invoiceKind !== 'final' || !row.sourceDocumentId) return [];
  const payments = await downPaymentsOf(tx, row.companyId, row.sourceDocumentId);
  const open = payments.filter((p) => p.status !== 'paid');
  if (open.length > 0) throw new AppError('DOWN_PAYMENT_OPEN', { numbers: open.map((p) => p.number) });
  return payments.map(deductionOf);
}

/**
 * What issuing a document does to the one it was made from: an offer or order confirmation that an order
 * confirmation or invoice follows is accepted (no longer an open offer); the invoice a cancellation invoice cancels
 * is cancelled.
 */
async function settleSource(tx: DbOrTx, row: DocumentRow): Promise<void> {
  if (!row.sourceDocumentId) return;
  const source = and(
    eq(salesDocuments.id, row.sourceDocumentId),
    eq(salesDocuments.companyId, row.companyId),
  );
  if (row.type === 'creditNote')
    await tx
      .update(salesDocuments)
      .set({ status: 'cancelled', updatedAt: new Date() })
      .where(and(source, eq(salesDocuments.type, 'invoice')));
  else
    await tx
      .update(salesDocuments)
      .set({ status: 'accepted', updatedAt: new Date() })
      .where(
        and(
          source,
          inArray(salesDocuments.type, ['offer', 'order']),
          inArray(salesDocuments.status, OPEN_STATUSES),
        ),
      );
}

/**
 * Issues a draft in one transaction: checks what the law asks of it, takes the next number of its series (so that a
 * refused or rolled-back issue leaves no gap), and stores the buyer, the seller and a final invoice's deductions as
 * they are now. An invoice or cancellation needs complete company details (what its e-invoice needs); an invoice
 * its service date (§ 14 (4) no. 6 UStG; a down-payment invoice's work lies ahead); a reverse-charge document the
 * buyer's VAT id. The document is `issued`, not `sent`: a mail sends it. A final invoice that its down payments
 * settle in full is `paid`.
 */
export async function finaliseSalesDocument(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
): Promise<SalesDocument> {
  const seller = await getCompanyDetails(ctx, actor);
  await ctx.db.transaction(async (tx) => {
    const row = await lockDraft(tx, actor, 'update', documentId);
    if (issueProblem(row)) throw new AppError('DOCUMENT_TOTALS_INVALID');
    const billing = row.type === 'invoice' || row.type === 'creditNote';
    if (billing && !seller.complete)
      throw new AppError('COMPANY_DETAILS_INCOMPLETE', { missing: seller.missing });
    // A cancellation repeats its invoice as issued; anything else follows the company's § 19 status now.
    if (row.type !== 'creditNote' && (row.taxTreatment === 'smallBusiness') !== seller.smallBusiness)
      throw new AppError('TAX_TREATMENT_STALE');
    const [customer] = await tx.select().from(customers).where(eq(customers.id, row.customerId));
    const buyer = row.buyer ? { ...row.buyer } : buyerOf(row, customer!);
    if (row.type === 'invoice' && row.invoiceKind !== 'downPayment' && !row.serviceDate)
      throw new AppError('SERVICE_DATE_MISSING');
    if (row.taxTreatment === 'reverseCharge' && !buyer.vatId) throw new AppError('BUYER_VAT_ID_MISSING');
    const deductions = await deductionsAtIssue(tx, row);
    const prepaidCents = deductions.reduce((sum, d) => sum + d.grossCents, 0);
    if (prepaidCents > row.grossCents) throw new AppError('DOCUMENT_TOTALS_INVALID');
    const year = Number(row.issueDate.slice(0, 4));
    const number = await nextDocumentNumber(tx, row.companyId, row.type, year);
    const settled = row.type === 'invoice' && prepaidCents === row.grossCents;
    await tx
      .update(salesDocuments)
      .set({
        status: settled ? 'paid' : 'issued',
        number,
        buyer,
        seller: sellerOf(seller),
        deductions,
        prepaidCents,
        finalisedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(salesDocuments.id, documentId));
    await settleSource(tx, row);
  });
  return getSalesDocument(ctx, actor, documentId);
}
