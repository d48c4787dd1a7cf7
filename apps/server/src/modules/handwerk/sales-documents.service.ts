import {
  CONVERSIONS,
  type CompanyDetails,
  documentTotals,
  type newSalesDocumentSchema,
  type SalesDocument,
  type SalesDocumentType,
  type salesDocumentBodySchema,
  type salesDocumentListQuerySchema,
  totalsProblem,
} from '@werkwissen/shared';
import { and, count, desc, eq, ilike, inArray, not, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { customerAccess } from '../../access/customer.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import { salesDocumentAccess } from '../../access/sales-document.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import {
  customers,
  files,
  passages,
  type StoredLine,
  type StoredParty,
  salesDocuments,
} from '../../db/schema/index.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { Actor } from '../auth/actor.ts';
import { getCompanyDetails } from '../company/company-details.service.ts';
import { companyLogo } from '../company/company-logo.service.ts';
import { nextDocumentNumber } from './document-numbers.ts';
import { salesDocumentPdf } from './sales-document-pdf.ts';
import {
  buyerOf,
  type DocumentRow,
  overdueSql,
  presentDocument,
  presentSummary,
} from './sales-document-view.ts';

type Body = z.output<typeof salesDocumentBodySchema>;
type NewBody = z.output<typeof newSalesDocumentSchema>;
type Query = z.output<typeof salesDocumentListQuerySchema>;

/** Days an invoice gives to pay when no due date is set. */
const PAYMENT_DAYS = 14;

const today = () => new Date().toISOString().slice(0, 10);
const plusDays = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The company's offers, order confirmations, invoices and credit notes the actor may read, newest first. */
export async function listSalesDocuments(ctx: AppContext, actor: Actor, query: Query) {
  const like = query.q ? containsPattern(query.q) : undefined;
  const status =
    query.status === 'overdue'
      ? overdueSql
      : query.status === 'sent'
        ? and(eq(salesDocuments.status, 'sent'), not(overdueSql))
        : query.status
          ? eq(salesDocuments.status, query.status)
          : undefined;
  const where = and(
    salesDocumentAccess.where(actor, 'read'),
    query.type ? eq(salesDocuments.type, query.type) : undefined,
    status,
    like
      ? or(ilike(salesDocuments.number, like), ilike(salesDocuments.title, like), ilike(customers.name, like))
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ row: salesDocuments, customerName: customers.name })
      .from(salesDocuments)
      .innerJoin(customers, eq(customers.id, salesDocuments.customerId))
      .where(where)
      .orderBy(desc(salesDocuments.createdAt), desc(salesDocuments.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db
      .select({ n: count() })
      .from(salesDocuments)
      .innerJoin(customers, eq(customers.id, salesDocuments.customerId))
      .where(where),
  ]);
  return {
    items: rows.map((r) => presentSummary(r.row, r.customerName)),
    total: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** One document the actor may read, with the customer it is for and the number of the one it was made from. */
export async function loadSalesDocument(db: DbOrTx, actor: Actor, documentId: string) {
  const [found] = await db
    .select({ row: salesDocuments, customer: customers })
    .from(salesDocuments)
    .innerJoin(customers, eq(customers.id, salesDocuments.customerId))
    .where(and(eq(salesDocuments.id, documentId), salesDocumentAccess.where(actor, 'read')));
  if (!found) throw notFound();
  let sourceNumber: string | null = null;
  if (found.row.sourceDocumentId) {
    const [source] = await db
      .select({ number: salesDocuments.number })
      .from(salesDocuments)
      .where(eq(salesDocuments.id, found.row.sourceDocumentId));
    sourceNumber = source?.number ?? null;
  }
  return { ...found, sourceNumber };
}

export async function getSalesDocument(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
): Promise<SalesDocument> {
  const { row, customer, sourceNumber } = await loadSalesDocument(ctx.db, actor, documentId);
  return presentDocument(row, customer, sourceNumber);
}

/** A customer of the actor's company they may read, or not found (another company's customer is never named). */
async function assertCustomer(db: DbOrTx, actor: Actor, customerId: string): Promise<void> {
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.id, customerId), customerAccess.where(actor, 'read')));
  if (!row) throw notFound();
}

/**
 * Keeps a line's citation only when it names a passage of the company's own files and quotes that passage; the file
 * name is the file's own. Citations come from drafting (`draftOffer`) and travel through the editor unchanged, so
 * anything else is dropped rather than stored as if the price list said it.
 */
const oneSpaced = (text: string) => text.replace(/\s+/g, ' ').trim();

async function citedLines<L extends Body['lines'][number]>(
  db: DbOrTx,
  companyId: string,
  lines: L[],
): Promise<L[]> {
  const ids = [...new Set(lines.flatMap((l) => (l.source ? [l.source.passageId] : [])))];
  if (ids.length === 0) return lines;
  const found = await db
    .select({ id: passages.id, fileId: passages.fileId, text: passages.text, fileName: files.name })
    .from(passages)
    .innerJoin(files, eq(files.id, passages.fileId))
    .where(and(inArray(passages.id, ids), eq(passages.companyId, companyId)));
  const byId = new Map(found.map((p) => [p.id, p]));
  return lines.map((line) => {
    const passage = line.source ? byId.get(line.source.passageId) : undefined;
    if (!line.source) return line;
    const quoted =
      passage &&
      passage.fileId === line.source.fileId &&
      oneSpaced(passage.text).includes(oneSpaced(line.source.excerpt));
    return { ...line, source: quoted ? { ...line.source, fileName: passage.fileName } : null };
  });
}

/** A draft's content with its totals, as stored. */
function draftValues(type: SalesDocumentType, body: Body) {
  const lines: StoredLine[] = body.lines.map((l) => ({ ...l, source: l.source ?? null }));
  const totals = documentTotals(lines);
  const issueDate = body.issueDate ?? today();
  return {
    customerId: body.customerId,
    language: body.language,
    issueDate,
    dueDate: type === 'invoice' ? (body.dueDate ?? plusDays(issueDate, PAYMENT_DAYS)) : body.dueDate,
    title: body.title,
    notes: body.notes,
    lines,
    netCents: totals.netCents,
    taxCents: totals.taxCents,
    grossCents: totals.grossCents,
    updatedAt: new Date(),
  };
}

/** Starts a draft offer, order confirmation or invoice for one of the company's customers. */
export async function createSalesDocument(
  ctx: AppContext,
  actor: Actor,
  body: NewBody,
  sourceDocumentId: string | null = null,
): Promise<SalesDocument> {
  const companyId = homeCompany(actor);
  salesDocumentAccess.assertCan(actor, 'create', { companyId });
  await assertCustomer(ctx.db, actor, body.customerId);
  body = { ...body, lines: await citedLines(ctx.db, companyId, body.lines) };
  const [row] = await ctx.db
    .insert(salesDocuments)
    .values({
      companyId,
      type: body.type,
      createdBy: actor.userId,
      sourceDocumentId,
      ...draftValues(body.type, body),
    })
    .returning({ id: salesDocuments.id });
  return getSalesDocument(ctx, actor, row!.id);
}

/** A draft the actor may change, locked for the transaction; an issued one is DOCUMENT_FINALISED. */
async function lockDraft(tx: DbOrTx, actor: Actor, action: 'update' | 'delete', documentId: string) {
  await salesDocumentAccess.authorize(tx, actor, action, documentId);
  const [row] = await tx.select().from(salesDocuments).where(eq(salesDocuments.id, documentId)).for('update');
  if (!row) throw notFound();
  if (row.status !== 'draft') throw new AppError('DOCUMENT_FINALISED');
  return row;
}

export async function updateSalesDocument(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
  body: Body,
): Promise<SalesDocument> {
  await ctx.db.transaction(async (tx) => {
    const row = await lockDraft(tx, actor, 'update', documentId);
    await assertCustomer(tx, actor, body.customerId);
    const lines = await citedLines(tx, row.companyId, body.lines);
    await tx
      .update(salesDocuments)
      .set(draftValues(row.type, { ...body, lines }))
      .where(eq(salesDocuments.id, documentId));
  });
  return getSalesDocument(ctx, actor, documentId);
}

export async function deleteSalesDocument(ctx: AppContext, actor: Actor, documentId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockDraft(tx, actor, 'delete', documentId);
    await tx.delete(salesDocuments).where(eq(salesDocuments.id, documentId));
  });
}

/** The company's details as a document stores its seller. */
function sellerOf({ complete: _complete, updatedAt: _updatedAt, ...details }: CompanyDetails): StoredParty {
  return details;
}

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
 * Issues a draft: checks its totals, takes the next number of its series in the same transaction, and stores the
 * buyer and seller as they are now. An invoice or credit note needs complete company details.
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
    if ((row.type === 'invoice' || row.type === 'creditNote') && !seller.complete)
      throw new AppError('COMPANY_DETAILS_INCOMPLETE');
    const [customer] = await tx.select().from(customers).where(eq(customers.id, row.customerId));
    const year = Number(row.issueDate.slice(0, 4));
    const number = await nextDocumentNumber(tx, row.companyId, row.type, year);
    await tx
      .update(salesDocuments)
      .set({
        status: 'sent',
        number,
        buyer: buyerOf(row, customer!),
        seller: sellerOf(seller),
        finalisedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(salesDocuments.id, documentId));
  });
  return getSalesDocument(ctx, actor, documentId);
}

/** An issued offer or order confirmation becomes accepted; an issued invoice paid. */
export async function setSalesDocumentStatus(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
  status: 'accepted' | 'paid',
): Promise<SalesDocument> {
  await salesDocumentAccess.authorize(ctx.db, actor, 'update', documentId);
  const allowed = status === 'paid' ? sql`type = 'invoice'` : sql`type in ('offer', 'order')`;
  const [row] = await ctx.db
    .update(salesDocuments)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(salesDocuments.id, documentId), eq(salesDocuments.status, 'sent'), allowed))
    .returning({ id: salesDocuments.id });
  if (!row) throw new AppError('DOCUMENT_STEP_INVALID');
  return getSalesDocument(ctx, actor, documentId);
}

/**
 * A new draft from a document: an order confirmation or invoice with an offer's lines, an invoice from an order
 * confirmation, a credit note of an issued invoice (the same lines, for the user to reduce to what is corrected).
 */
export async function convertSalesDocument(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
  input: { type: 'order' | 'invoice' | 'creditNote'; language?: string },
): Promise<SalesDocument> {
  const { row } = await loadSalesDocument(ctx.db, actor, documentId);
  if (!CONVERSIONS[row.type].includes(input.type)) throw new AppError('DOCUMENT_STEP_INVALID');
  if (input.type === 'creditNote' && row.status === 'draft') throw new AppError('DOCUMENT_NOT_FINALISED');
  const companyId = homeCompany(actor);
  salesDocumentAccess.assertCan(actor, 'create', { companyId });
  const body: Body = {
    customerId: row.customerId,
    language: (input.language ?? row.language) as Body['language'],
    issueDate: null,
    dueDate: null,
    title: row.title,
    notes: row.notes,
    lines: row.lines,
  };
  const [created] = await ctx.db
    .insert(salesDocuments)
    .values({
      companyId,
      type: input.type,
      createdBy: actor.userId,
      sourceDocumentId: row.id,
      ...draftValues(input.type, body),
    })
    .returning({ id: salesDocuments.id });
  return getSalesDocument(ctx, actor, created!.id);
}

/** The document as PDF (file name and bytes): the seller as issued, or for a draft the company's details now. */
export async function downloadSalesDocumentPdf(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
): Promise<{ fileName: string; pdf: Buffer }> {
  const { row, customer, sourceNumber } = await loadSalesDocument(ctx.db, actor, documentId);
  const seller = row.seller ?? sellerOf(await getCompanyDetails(ctx, actor));
  const pdf = await salesDocumentPdf({
    document: presentDocument(row, customer, sourceNumber),
    seller,
    logo: await companyLogo(ctx, row.companyId),
  });
  return { fileName: `${(row.number ?? `${row.type}-draft`).replace(/[^\w.-]/g, '_')}.pdf`, pdf };
}
