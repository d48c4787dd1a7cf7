import type { Dashboard, SalesDocumentStatus, SalesDocumentType } from '@werkwissen/shared';
import { and, count, desc, eq, gt, ilike, inArray, lt, ne, not, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import {
  companyDetails,
  customers,
  documentNumberSeries,
  files,
  passages,
  salesDocuments,
} from '../../db/schema/index.ts';
import { type CustomerRow, type DocumentRow, OPEN_STATUSES, type SourceRef } from './sales-document-view.ts';

/** What a new document is stored with. */
export type NewDocument = typeof salesDocuments.$inferInsert;

/** Issued and not yet settled. */
const open = inArray(salesDocuments.status, OPEN_STATUSES);

/** `overdue`: an issued invoice, unpaid, past its due date. */
const overdue = and(eq(salesDocuments.type, 'invoice'), open, lt(salesDocuments.dueDate, sql`current_date`))!;

/** The condition of a shown status: an issued or sent invoice past its due date is overdue, not issued or sent. */
function shownStatusIs(status: SalesDocumentStatus): SQL | undefined {
  if (status === 'overdue') return overdue;
  if (status === 'sent' || status === 'issued') return and(eq(salesDocuments.status, status), not(overdue));
  return eq(salesDocuments.status, status);
}

/**
 * A page of the documents `access` (a compiled SalesDocument rule) lets through, newest first, with their
 * customers' names, and how many there are; `pattern` (an ILIKE pattern) matches number, title or customer name.
 */
export async function documentPage(
  db: DbOrTx,
  access: SQL,
  filter: {
    type: SalesDocumentType | undefined;
    status: SalesDocumentStatus | undefined;
    pattern: string | undefined;
    page: number;
    pageSize: number;
  },
): Promise<{ items: { row: DocumentRow; customerName: string }[]; total: number }> {
  const { pattern } = filter;
  const where = and(
    access,
    filter.type ? eq(salesDocuments.type, filter.type) : undefined,
    filter.status ? shownStatusIs(filter.status) : undefined,
    pattern
      ? or(
          ilike(salesDocuments.number, pattern),
          ilike(salesDocuments.title, pattern),
          ilike(customers.name, pattern),
        )
      : undefined,
  );
  const [items, [total]] = await Promise.all([
    db
      .select({ row: salesDocuments, customerName: customers.name })
      .from(salesDocuments)
      .innerJoin(customers, eq(customers.id, salesDocuments.customerId))
      .where(where)
      .orderBy(desc(salesDocuments.createdAt), desc(salesDocuments.id))
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize),
    db
      .select({ n: count() })
      .from(salesDocuments)
      .innerJoin(customers, eq(customers.id, salesDocuments.customerId))
      .where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** The document with its customer, if `access` lets it through. */
export async function documentWithCustomer(
  db: DbOrTx,
  documentId: string,
  access: SQL,
): Promise<{ row: DocumentRow; customer: CustomerRow } | undefined> {
  const [found] = await db
    .select({ row: salesDocuments, customer: customers })
    .from(salesDocuments)
    .innerJoin(customers, eq(customers.id, salesDocuments.customerId))
    .where(and(eq(salesDocuments.id, documentId), access));
  return found;
}

/** The type, number and issue date of one of the company's documents (the one another was made from). */
export async function sourceReference(
  db: DbOrTx,
  companyId: string,
  documentId: string,
): Promise<SourceRef | null> {
  const [ref] = await db
    .select({ type: salesDocuments.type, number: salesDocuments.number, issueDate: salesDocuments.issueDate })
    .from(salesDocuments)
    .where(and(eq(salesDocuments.id, documentId), eq(salesDocuments.companyId, companyId)));
  return ref ?? null;
}

/** The company's passages of these ids, with their text and their file's id and name. */
export async function quotablePassages(
  db: DbOrTx,
  companyId: string,
  passageIds: string[],
): Promise<{ id: string; fileId: string; text: string; fileName: string }[]> {
  return db
    .select({ id: passages.id, fileId: passages.fileId, text: passages.text, fileName: files.name })
    .from(passages)
    .innerJoin(files, eq(files.id, passages.fileId))
    .where(and(inArray(passages.id, passageIds), eq(passages.companyId, companyId)));
}

/** Whether the company is a small business under § 19 UStG (its documents charge no VAT). */
export async function isSmallBusiness(db: DbOrTx, companyId: string): Promise<boolean> {
  const [row] = await db
    .select({ smallBusiness: companyDetails.smallBusiness })
    .from(companyDetails)
    .where(eq(companyDetails.companyId, companyId));
  return row?.smallBusiness ?? false;
}

/** Stores a new document: its id. */
export async function insertDocument(db: DbOrTx, values: NewDocument): Promise<string> {
  const [row] = await db.insert(salesDocuments).values(values).returning({ id: salesDocuments.id });
  return row!.id;
}

/** The document, locked for the rest of the transaction. */
export async function lockDocument(tx: DbOrTx, documentId: string): Promise<DocumentRow | undefined> {
  const [row] = await tx.select().from(salesDocuments).where(eq(salesDocuments.id, documentId)).for('update');
  return row;
}

/** A draft's new content. */
export async function updateDocumentRow(
  tx: DbOrTx,
  documentId: string,
  values: Partial<NewDocument>,
): Promise<void> {
  await tx.update(salesDocuments).set(values).where(eq(salesDocuments.id, documentId));
}

export async function deleteDocumentRow(tx: DbOrTx, documentId: string): Promise<void> {
  await tx.delete(salesDocuments).where(eq(salesDocuments.id, documentId));
}

/**
 * An open (issued or sent) offer or order confirmation becomes accepted, an open invoice with something left to pay
 * paid: whether it did.
 */
export async function settleOpenDocument(
  db: DbOrTx,
  documentId: string,
  status: 'accepted' | 'paid',
): Promise<boolean> {
  const allowed =
    status === 'paid'
      ? and(eq(salesDocuments.type, 'invoice'), gt(salesDocuments.grossCents, salesDocuments.prepaidCents))
      : inArray(salesDocuments.type, ['offer', 'order']);
  const [row] = await db
    .update(salesDocuments)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(salesDocuments.id, documentId), open, allowed))
    .returning({ id: salesDocuments.id });
  return row !== undefined;
}

/** Whether the company's invoice has a cancellation invoice (a credit note made from it). */
export async function hasCancellation(db: DbOrTx, companyId: string, invoiceId: string): Promise<boolean> {
  const [existing] = await db
    .select({ id: salesDocuments.id })
    .from(salesDocuments)
    .where(
      and(
        eq(salesDocuments.companyId, companyId),
        eq(salesDocuments.sourceDocumentId, invoiceId),
        eq(salesDocuments.type, 'creditNote'),
      ),
    );
  return existing !== undefined;
}

/** Whether a final invoice of the company, not cancelled, deducts this down-payment invoice. */
export async function isDeductedByFinalInvoice(
  db: DbOrTx,
  companyId: string,
  downPaymentId: string,
): Promise<boolean> {
  const [finalInvoice] = await db
    .select({ id: salesDocuments.id })
    .from(salesDocuments)
    .where(
      and(
        eq(salesDocuments.companyId, companyId),
        eq(salesDocuments.invoiceKind, 'final'),
        ne(salesDocuments.status, 'cancelled'),
        sql`${salesDocuments.deductions} @> ${JSON.stringify([{ documentId: downPaymentId }])}::jsonb`,
      ),
    );
  return finalInvoice !== undefined;
}

/**
 * Raises the company's series of this type and year by one: the number taken. The series row stays locked until
 * the transaction ends, so a concurrent caller waits and takes the following number, and a rollback gives it back.
 */
export async function takeSeriesNumber(
  tx: DbOrTx,
  companyId: string,
  type: SalesDocumentType,
  year: number,
): Promise<number> {
  const [row] = await tx
    .insert(documentNumberSeries)
    .values({ companyId, type, year, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [documentNumberSeries.companyId, documentNumberSeries.type, documentNumberSeries.year],
      set: { lastNumber: sql`${documentNumberSeries.lastNumber} + 1` },
    })
    .returning({ lastNumber: documentNumberSeries.lastNumber });
  return row!.lastNumber;
}

const openOffer = and(eq(salesDocuments.type, 'offer'), open)!;
const unpaid = and(eq(salesDocuments.type, 'invoice'), open)!;
const due = sql`(${salesDocuments.grossCents} - ${salesDocuments.prepaidCents})`;

/**
 * Over the documents `access` lets through: open offers, unpaid invoices and overdue ones, each counted and summed
 * (an offer's gross amount, an invoice's amount left to pay).
 */
export async function salesFigureTotals(db: DbOrTx, access: SQL): Promise<NonNullable<Dashboard['sales']>> {
  const [row] = await db
    .select({
      openOffers: sql<number>`count(*) filter (where ${openOffer})`.mapWith(Number),
      openOffersCents:
        sql<number>`coalesce(sum(${salesDocuments.grossCents}) filter (where ${openOffer}), 0)`.mapWith(
          Number,
        ),
      unpaidInvoices: sql<number>`count(*) filter (where ${unpaid})`.mapWith(Number),
      unpaidCents: sql<number>`coalesce(sum(${due}) filter (where ${unpaid}), 0)`.mapWith(Number),
      overdueInvoices: sql<number>`count(*) filter (where ${overdue})`.mapWith(Number),
      overdueCents: sql<number>`coalesce(sum(${due}) filter (where ${overdue}), 0)`.mapWith(Number),
    })
    .from(salesDocuments)
    .where(access);
  return row!;
}
