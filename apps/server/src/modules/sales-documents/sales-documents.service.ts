import {
  type CompanyDetails,
  documentTotals,
  type newSalesDocumentSchema,
  type SalesDocument,
  type SalesDocumentType,
  type salesDocumentBodySchema,
  type salesDocumentListQuerySchema,
  type TaxTreatment,
} from '@werkwissen/shared';
import type { z } from 'zod';
import { customerAccess } from '../../access/customer.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import { salesDocumentAccess } from '../../access/sales-document.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import type { StoredLine, StoredParty } from '../../db/schema/index.ts';
import { getCompanyDetails } from '../company/company-details.service.ts';
import { companyLogo } from '../company/company-logo.service.ts';
import { customerVisible } from './customers.queries.ts';
import { currentDeductions } from './down-payments.ts';
import { salesDocumentPdf } from './sales-document-pdf.ts';
import { presentDocument, presentSummary } from './sales-document-view.ts';
import {
  deleteDocumentRow,
  documentPage,
  documentWithCustomer,
  insertDocument,
  isSmallBusiness,
  lockDocument,
  quotablePassages,
  settleOpenDocument,
  sourceReference,
  updateDocumentRow,
} from './sales-documents.queries.ts';

export type Body = z.output<typeof salesDocumentBodySchema>;
type NewBody = z.output<typeof newSalesDocumentSchema>;
type Query = z.output<typeof salesDocumentListQuerySchema>;

/** Days an invoice gives to pay when no due date is set. */
const PAYMENT_DAYS = 14;

const today = () => new Date().toISOString().slice(0, 10);
export const plusDays = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The company's offers, order confirmations, invoices and credit notes the actor may read, newest first. */
export async function listSalesDocuments(ctx: AppContext, actor: Actor, query: Query) {
  const { items, total } = await documentPage(ctx.db, salesDocumentAccess.where(actor, 'read'), {
    type: query.type,
    status: query.status,
    pattern: query.q ? containsPattern(query.q) : undefined,
    page: query.page,
    pageSize: query.pageSize,
  });
  return {
    items: items.map((r) => presentSummary(r.row, r.customerName)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * One document the actor may read, with the customer it is for, the number and date of the one it was made from,
 * and as `document` how the API shows it (a draft final invoice with the down payments paid now).
 */
export async function loadSalesDocument(db: DbOrTx, actor: Actor, documentId: string) {
  const found = await documentWithCustomer(db, documentId, salesDocumentAccess.where(actor, 'read'));
  if (!found) throw notFound();
  const { row, customer } = found;
  const source = row.sourceDocumentId ? await sourceReference(db, row.companyId, row.sourceDocumentId) : null;
  const deductions = row.status === 'draft' ? await currentDeductions(db, row) : row.deductions;
  return { row, customer, source, document: presentDocument(row, customer, source, deductions) };
}

export async function getSalesDocument(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
): Promise<SalesDocument> {
  return (await loadSalesDocument(ctx.db, actor, documentId)).document;
}

/** A customer of the actor's company they may read, or not found (another company's customer is never named). */
async function assertCustomer(db: DbOrTx, actor: Actor, customerId: string): Promise<void> {
  if (!(await customerVisible(db, customerId, customerAccess.where(actor, 'read')))) throw notFound();
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
  const found = await quotablePassages(db, companyId, ids);
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

/**
 * A draft's content with its totals, as stored. A small business's documents are `smallBusiness`; a document
 * without standard VAT carries 0 % on every line. Only an offer has a validity, only an invoice cash discount.
 */
export function draftValues(type: SalesDocumentType, body: Body, smallBusiness: boolean) {
  const taxTreatment: TaxTreatment = smallBusiness ? 'smallBusiness' : body.taxTreatment;
  const lines: StoredLine[] = body.lines.map((l) => ({
    ...l,
    taxRate: taxTreatment === 'standard' ? l.taxRate : 0,
    source: l.source ?? null,
  }));
  const totals = documentTotals(lines);
  const issueDate = body.issueDate ?? today();
  return {
    customerId: body.customerId,
    language: body.language,
    issueDate,
    dueDate: type === 'invoice' ? (body.dueDate ?? plusDays(issueDate, PAYMENT_DAYS)) : body.dueDate,
    serviceDate: body.serviceDate,
    serviceEndDate: body.serviceDate ? body.serviceEndDate : null,
    validUntil: type === 'offer' ? body.validUntil : null,
    taxTreatment,
    propertyService: body.propertyService,
    cashDiscount: type === 'invoice' ? body.cashDiscount : null,
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
  const id = await insertDocument(ctx.db, {
    companyId,
    type: body.type,
    createdBy: actor.userId,
    sourceDocumentId,
    ...draftValues(body.type, body, await isSmallBusiness(ctx.db, companyId)),
  });
  return getSalesDocument(ctx, actor, id);
}

/** A draft the actor may change, locked for the transaction; an issued one is DOCUMENT_FINALISED. */
export async function lockDraft(tx: DbOrTx, actor: Actor, action: 'update' | 'delete', documentId: string) {
  await salesDocumentAccess.authorize(tx, actor, action, documentId);
  const row = await lockDocument(tx, documentId);
  if (!row) throw notFound();
  if (row.status !== 'draft') throw new AppError('DOCUMENT_FINALISED');
  return row;
}

const sameLines = (a: readonly StoredLine[], b: readonly StoredLine[]) =>
  JSON.stringify(a.map(({ source: _s, ...l }) => l)) === JSON.stringify(b.map(({ source: _s, ...l }) => l));

/**
 * Changes a draft. A cancellation invoice repeats its invoice: its lines, service date and VAT treatment stay
 * (CANCELLATION_FIXED); its date, language and notes may change.
 */
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
    const values = draftValues(row.type, { ...body, lines }, await isSmallBusiness(tx, row.companyId));
    if (
      row.type === 'creditNote' &&
      (!sameLines(values.lines, row.lines) ||
        values.customerId !== row.customerId ||
        values.serviceDate !== row.serviceDate ||
        values.serviceEndDate !== row.serviceEndDate ||
        values.taxTreatment !== row.taxTreatment)
    )
      throw new AppError('CANCELLATION_FIXED');
    await updateDocumentRow(tx, documentId, values);
  });
  return getSalesDocument(ctx, actor, documentId);
}

export async function deleteSalesDocument(ctx: AppContext, actor: Actor, documentId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockDraft(tx, actor, 'delete', documentId);
    await deleteDocumentRow(tx, documentId);
  });
}

/** The company's details as a document stores its seller. */
export function sellerOf({
  complete: _complete,
  missing: _missing,
  updatedAt: _updatedAt,
  ...details
}: CompanyDetails): StoredParty {
  return details;
}

/**
 * An issued offer or order confirmation becomes accepted; an issued invoice paid (not a cancelled one, nor a final
 * invoice whose down payments leave nothing to pay: it is settled when issued).
 */
export async function setSalesDocumentStatus(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
  status: 'accepted' | 'paid',
): Promise<SalesDocument> {
  await salesDocumentAccess.authorize(ctx.db, actor, 'update', documentId);
  if (!(await settleOpenDocument(ctx.db, documentId, status))) throw new AppError('DOCUMENT_STEP_INVALID');
  return getSalesDocument(ctx, actor, documentId);
}

/** The document as PDF (file name and bytes): the seller as issued, or for a draft the company's details now. */
export async function downloadSalesDocumentPdf(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
): Promise<{ fileName: string; pdf: Buffer }> {
  const { row, document } = await loadSalesDocument(ctx.db, actor, documentId);
  const seller = row.seller ?? sellerOf(await getCompanyDetails(ctx, actor));
  const pdf = await salesDocumentPdf({
    document,
    seller,
    logo: await companyLogo(ctx, row.companyId),
  });
  return { fileName: `${(row.number ?? `${row.type}-draft`).replace(/[^\w.-]/g, '_')}.pdf`, pdf };
}
