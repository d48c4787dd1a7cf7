import { type Deduction, documentTotals } from '@werkwissen/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { salesDocuments } from '../../db/schema/index.ts';
import type { DocumentRow } from './sales-document-view.ts';

/**
 * The issued down-payment invoices of a job: those made from the same offer or order confirmation (its id), not
 * cancelled. A final invoice of that job deducts the paid ones, and is not issued while one is still open.
 */
export async function downPaymentsOf(db: DbOrTx, companyId: string, jobId: string): Promise<DocumentRow[]> {
  return db
    .select()
    .from(salesDocuments)
    .where(
      and(
        eq(salesDocuments.companyId, companyId),
        eq(salesDocuments.sourceDocumentId, jobId),
        eq(salesDocuments.type, 'invoice'),
        eq(salesDocuments.invoiceKind, 'downPayment'),
        inArray(salesDocuments.status, ['issued', 'sent', 'paid']),
      ),
    )
    .orderBy(salesDocuments.issueDate, salesDocuments.number);
}

/** A paid down-payment invoice as a final invoice deducts it: its number, date, and amounts with VAT per rate. */
export function deductionOf(row: DocumentRow): Deduction {
  const totals = documentTotals(row.lines);
  return {
    documentId: row.id,
    number: row.number ?? '',
    issueDate: row.issueDate,
    taxGroups: totals.taxGroups,
    netCents: row.netCents,
    taxCents: row.taxCents,
    grossCents: row.grossCents,
  };
}

/** What a final invoice deducts now: the job's down payments that are paid. */
export async function currentDeductions(db: DbOrTx, row: DocumentRow): Promise<Deduction[]> {
  if (row.type !== 'invoice' || row.invoiceKind !== 'final' || !row.sourceDocumentId) return [];
  const payments = await downPaymentsOf(db, row.companyId, row.sourceDocumentId);
  return payments.filter((p) => p.status === 'paid').map(deductionOf);
}
