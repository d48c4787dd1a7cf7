import {
  type Deduction,
  documentTotals,
  type Language,
  type SalesDocument,
  type SalesDocumentStatus,
  type SalesDocumentSummary,
} from '@werkwissen/shared';
import type { customers, salesDocuments } from '../../db/schema/index.ts';

export type DocumentRow = typeof salesDocuments.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;

/** Issued and not yet settled: `issued` (not mailed) or `sent`. */
export const OPEN_STATUSES = ['issued', 'sent'] as const;

/** The status shown: an issued or sent invoice past its due date is overdue. */
export function shownStatus(
  row: DocumentRow,
  today = new Date().toISOString().slice(0, 10),
): SalesDocumentStatus {
  const open = row.status === 'issued' || row.status === 'sent';
  if (row.type === 'invoice' && open && row.dueDate && row.dueDate < today) return 'overdue';
  return row.status;
}

/** The buyer of a document: as issued, or (a draft) the customer as it is now. */
export function buyerOf(row: DocumentRow, customer: CustomerRow): SalesDocument['buyer'] {
  const stored = row.buyer;
  if (stored) {
    return {
      name: String(stored.name),
      street: String(stored.street),
      postalCode: String(stored.postalCode),
      city: String(stored.city),
      country: String(stored.country),
      email: String(stored.email),
      vatId: String(stored.vatId),
      buyerReference: String(stored.buyerReference ?? ''),
      // Documents issued before customers had a kind: a buyer with a VAT id was a business.
      kind:
        stored.kind === 'private' || (stored.kind === undefined && !stored.vatId) ? 'private' : 'business',
    };
  }
  return {
    name: customer.name,
    street: customer.street,
    postalCode: customer.postalCode,
    city: customer.city,
    country: customer.country,
    email: customer.email,
    vatId: customer.vatId,
    buyerReference: customer.buyerReference,
    kind: customer.kind,
  };
}

export function presentSummary(
  row: DocumentRow,
  customerName: string,
  prepaidCents = row.prepaidCents,
): SalesDocumentSummary {
  return {
    id: row.id,
    type: row.type,
    status: shownStatus(row),
    number: row.number,
    customerId: row.customerId,
    customerName: row.buyer ? String(row.buyer.name) : customerName,
    title: row.title,
    language: row.language as Language,
    invoiceKind: row.invoiceKind,
    issueDate: row.issueDate,
    dueDate: row.dueDate,
    netCents: row.netCents,
    grossCents: row.grossCents,
    amountDueCents: row.grossCents - prepaidCents,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The document this one was made from: its number and issue date (null for a draft source or none). */
export interface SourceRef {
  type: DocumentRow['type'];
  number: string | null;
  issueDate: string | null;
}

/**
 * A document as the API shows it. `deductions` are a final invoice's down payments: stored once it is issued, read
 * live (those paid now) while it is a draft.
 */
export function presentDocument(
  row: DocumentRow,
  customer: CustomerRow,
  source: SourceRef | null,
  deductions: Deduction[] = row.deductions,
): SalesDocument {
  const totals = documentTotals(row.lines);
  const prepaidCents = deductions.reduce((sum, d) => sum + d.grossCents, 0);
  return {
    ...presentSummary(row, customer.name, prepaidCents),
    notes: row.notes,
    serviceDate: row.serviceDate,
    serviceEndDate: row.serviceEndDate,
    validUntil: row.validUntil,
    taxTreatment: row.taxTreatment,
    propertyService: row.propertyService,
    cashDiscount: row.cashDiscount,
    lines: row.lines.map((line, i) => ({ ...line, netCents: totals.lineNetCents[i]! })),
    taxGroups: totals.taxGroups,
    taxCents: row.taxCents,
    deductions,
    prepaidCents,
    buyer: buyerOf(row, customer),
    sourceDocumentId: row.sourceDocumentId,
    sourceType: source?.type ?? null,
    sourceNumber: source?.number ?? null,
    sourceIssueDate: source?.number ? source.issueDate : null,
    finalisedAt: row.finalisedAt?.toISOString() ?? null,
    sentAt: row.sentAt?.toISOString() ?? null,
  };
}
