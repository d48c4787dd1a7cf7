import {
  CONVERSIONS,
  type convertBodySchema,
  divideRounded,
  type InvoiceKind,
  type Language,
  type SalesDocument,
} from '@werkwissen/shared';
import type { z } from 'zod';
import { homeCompany } from '../../access/resource-access.ts';
import { salesDocumentAccess } from '../../access/sales-document.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { documentFormat } from './document-format.ts';
import { documentTitle } from './document-texts.ts';
import { downPaymentsOf } from './down-payments.ts';
import type { DocumentRow } from './sales-document-view.ts';
import {
  hasCancellation,
  insertDocument,
  isDeductedByFinalInvoice,
  isSmallBusiness,
} from './sales-documents.queries.ts';
import { type Body, draftValues, getSalesDocument, loadSalesDocument } from './sales-documents.service.ts';

type ConvertBody = z.output<typeof convertBodySchema>;

/**
 * A down-payment invoice's lines: the share of the job's net amount at each of its tax rates, so that the down
 * payment carries the VAT the job will ("Abschlag 30 % auf Angebot AN-2026-0001").
 */
function downPaymentLines(job: SalesDocument, percent: number, language: Language): Body['lines'] {
  const f = documentFormat(language);
  const name = f.t('downPaymentLine', {
    percent: f.number(percent),
    document: documentTitle(job, f),
    number: job.number,
  });
  return job.taxGroups.map((group) => ({
    description: job.taxGroups.length > 1 ? `${name} (${f.number(group.taxRate)} %)` : name,
    quantity: 1,
    unit: '',
    unitPriceCents: divideRounded(BigInt(group.netCents) * BigInt(Math.round(percent * 100)), 10000n),
    discountPercent: 0,
    taxRate: group.taxRate,
    source: null,
  }));
}

/**
 * The cancellation invoice (Stornorechnung) of an issued invoice: the invoice repeated as it was issued (buyer,
 * lines, service date, VAT treatment, deductions), citing it. One per invoice; a down payment that an issued final
 * invoice deducts is not cancelled (the final invoice is, first).
 */
async function cancellationOf(
  ctx: AppContext,
  actor: Actor,
  row: DocumentRow,
  language: Language,
): Promise<SalesDocument> {
  if (row.status === 'draft') throw new AppError('DOCUMENT_NOT_FINALISED');
  if (row.status === 'cancelled') throw new AppError('DOCUMENT_STEP_INVALID');
  if (await hasCancellation(ctx.db, row.companyId, row.id)) throw new AppError('DOCUMENT_STEP_INVALID');
  if (row.invoiceKind === 'downPayment' && (await isDeductedByFinalInvoice(ctx.db, row.companyId, row.id)))
    throw new AppError('DOCUMENT_STEP_INVALID');
  const created = await insertDocument(ctx.db, {
    companyId: row.companyId,
    type: 'creditNote',
    invoiceKind: row.invoiceKind,
    createdBy: actor.userId,
    sourceDocumentId: row.id,
    customerId: row.customerId,
    language,
    issueDate: new Date().toISOString().slice(0, 10),
    serviceDate: row.serviceDate,
    serviceEndDate: row.serviceEndDate,
    taxTreatment: row.taxTreatment,
    propertyService: row.propertyService,
    lines: row.lines,
    netCents: row.netCents,
    taxCents: row.taxCents,
    grossCents: row.grossCents,
    deductions: row.deductions,
    prepaidCents: row.prepaidCents,
    buyer: row.buyer,
  });
  return getSalesDocument(ctx, actor, created);
}

/**
 * A new draft from a document: an order confirmation or invoice from an offer, an invoice from an order
 * confirmation, the cancellation invoice of an issued invoice. An invoice may be a down payment (a share of the
 * issued offer or order confirmation) or the final invoice of that job; a standard invoice of a job that has down
 * payments is its final invoice, so that nothing is billed twice. The new document does not take the source's
 * subject, notes or validity; it takes its lines, service date and VAT treatment.
 */
export async function convertSalesDocument(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
  input: ConvertBody,
): Promise<SalesDocument> {
  const { row, document } = await loadSalesDocument(ctx.db, actor, documentId);
  if (!CONVERSIONS[row.type].includes(input.type)) throw new AppError('DOCUMENT_STEP_INVALID');
  const companyId = homeCompany(actor);
  salesDocumentAccess.assertCan(actor, 'create', { companyId });
  const language = (input.language ?? row.language) as Language;
  if (input.type === 'creditNote') return cancellationOf(ctx, actor, row, language);

  let invoiceKind: InvoiceKind = input.type === 'invoice' ? input.invoiceKind : 'standard';
  if (invoiceKind !== 'standard' && !row.number) throw new AppError('DOCUMENT_NOT_FINALISED');
  if (invoiceKind === 'standard' && input.type === 'invoice' && row.number) {
    const payments = await downPaymentsOf(ctx.db, row.companyId, row.id);
    if (payments.length > 0) invoiceKind = 'final';
  }
  const body: Body = {
    customerId: row.customerId,
    language,
    issueDate: null,
    dueDate: null,
    serviceDate: row.serviceDate,
    serviceEndDate: row.serviceEndDate,
    validUntil: null,
    taxTreatment: row.taxTreatment === 'reverseCharge' ? 'reverseCharge' : 'standard',
    propertyService: row.propertyService,
    cashDiscount: null,
    title: '',
    notes: '',
    lines:
      invoiceKind === 'downPayment'
        ? downPaymentLines(document, input.downPaymentPercent ?? 0, language)
        : row.lines,
  };
  const created = await insertDocument(ctx.db, {
    companyId,
    type: input.type,
    invoiceKind,
    createdBy: actor.userId,
    sourceDocumentId: row.id,
    ...draftValues(input.type, body, await isSmallBusiness(ctx.db, companyId)),
  });
  return getSalesDocument(ctx, actor, created);
}
