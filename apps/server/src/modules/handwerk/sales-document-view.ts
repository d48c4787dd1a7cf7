import {
  documentTotals,
  type Language,
  type SalesDocument,
  type SalesDocumentStatus,
  type SalesDocumentSummary,
} from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { customers, salesDocuments } from '../../db/schema/index.ts';

export type DocumentRow = typeof salesDocuments.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;

/** `overdue` as SQL: an issued invoice, unpaid, past its due date. */
export const overdueSql = sql`(sales_documents.type = 'invoice' and sales_documents.status = 'sent' and sales_documents.due_date < current_date)`;

/** The status shown: a sent invoice past its due date is overdue. */
export function shownStatus(
  row: DocumentRow,
  today = new Date().toISOString().slice(0, 10),
): SalesDocumentStatus {
  if (row.type === 'invoice' && row.status === 'sent' && row.dueDate && row.dueDate < today) return 'overdue';
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
  };
}

export function presentSummary(row: DocumentRow, customerName: string): SalesDocumentSummary {
  return {
    id: row.id,
    type: row.type,
    status: shownStatus(row),
    number: row.number,
    customerId: row.customerId,
    customerName: row.buyer ? String(row.buyer.name) : customerName,
    title: row.title,
    language: row.language as Language,
    issueDate: row.issueDate,
    dueDate: row.dueDate,
    netCents: row.netCents,
    grossCents: row.grossCents,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentDocument(
  row: DocumentRow,
  customer: CustomerRow,
  sourceNumber: string | null,
): SalesDocument {
  const totals = documentTotals(row.lines);
  return {
    ...presentSummary(row, customer.name),
    notes: row.notes,
    lines: row.lines.map((line, i) => ({ ...line, netCents: totals.lineNetCents[i]! })),
    taxGroups: totals.taxGroups,
    taxCents: row.taxCents,
    buyer: buyerOf(row, customer),
    sourceDocumentId: row.sourceDocumentId,
    sourceNumber,
    finalisedAt: row.finalisedAt?.toISOString() ?? null,
    sentAt: row.sentAt?.toISOString() ?? null,
  };
}
