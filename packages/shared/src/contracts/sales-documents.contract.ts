import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages.ts';
import { optional } from './company-details.contract.ts';
import { emailField, languageField, multiLineText, requiredText, singleLineText } from './fields.ts';
import { defineContract, fileResponse, listOf, listQuerySchema, uuidParam } from './route-contract.ts';

/**
 * Offer -> order confirmation -> invoice; a credit note is the cancellation invoice (Stornorechnung) of an issued
 * invoice: an issued invoice never changes, it is cancelled as a whole and issued anew (GoBD).
 */
export const SALES_DOCUMENT_TYPES = ['offer', 'order', 'invoice', 'creditNote'] as const;
export type SalesDocumentType = (typeof SALES_DOCUMENT_TYPES)[number];
/**
 * Stored statuses: `issued` (numbered, not mailed), `sent` (a mail took it to the customer), `accepted` (an offer or
 * order confirmation), `paid` (an invoice), `cancelled` (an invoice whose cancellation invoice is issued). `overdue`
 * is an issued or sent invoice unpaid past its due date (shown, never stored).
 */
export const SALES_DOCUMENT_STATUSES = [
  'draft',
  'issued',
  'sent',
  'accepted',
  'paid',
  'cancelled',
  'overdue',
] as const;
export type SalesDocumentStatus = (typeof SALES_DOCUMENT_STATUSES)[number];
/**
 * What an invoice is: a `standard` invoice, a `downPayment` invoice (Abschlagsrechnung, a share of an offer or order
 * confirmation before the work is done), or the `final` invoice (Schlussrechnung) of that job, which deducts the
 * down payments received with their VAT. Other types are `standard`.
 */
export const INVOICE_KINDS = ['standard', 'downPayment', 'final'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];
/**
 * How VAT applies: `standard`; `reverseCharge`, construction work billed to another construction business (§ 13b
 * UStG: the customer owes the VAT, 0 % on the invoice, category AE); `smallBusiness`, a company under § 19 UStG
 * (no VAT, category E). The last follows the company details and is not chosen per document.
 */
export const TAX_TREATMENTS = ['standard', 'reverseCharge', 'smallBusiness'] as const;
export type TaxTreatment = (typeof TAX_TREATMENTS)[number];
/** What each type may become: an accepted offer an order confirmation or an invoice, an invoice a credit note. */
export const CONVERSIONS: Record<SalesDocumentType, SalesDocumentType[]> = {
  offer: ['order', 'invoice'],
  order: ['invoice'],
  invoice: ['creditNote'],
  creditNote: [],
};

const percent = z
  .number({ message: 'validation.required' })
  .min(0, { message: 'validation.numberMin' })
  .max(100, { message: 'validation.numberMax' })
  .multipleOf(0.01, { message: 'validation.invalid' });

/** Where a drafted line's item and price were found: a passage of one of the company's files. */
export const lineSourceSchema = z.object({
  fileId: z.uuid(),
  fileName: singleLineText(300),
  passageId: z.uuid(),
  excerpt: multiLineText(1000),
});
export type LineSource = z.infer<typeof lineSourceSchema>;

export const salesDocumentLineSchema = z.strictObject({
  description: requiredText(500),
  /** Up to 3 decimals (2.5 h). */
  quantity: z
    .number({ message: 'validation.required' })
    .gt(0, { message: 'validation.numberMin' })
    .max(1_000_000, { message: 'validation.numberMax' })
    .multipleOf(0.001, { message: 'validation.invalid' }),
  /** "h", "Stk", "m²", "pauschal". */
  unit: singleLineText(40),
  unitPriceCents: z
    .number({ message: 'validation.required' })
    .int({ message: 'validation.invalid' })
    .min(-100_000_000, { message: 'validation.numberMin' })
    .max(100_000_000, { message: 'validation.numberMax' }),
  discountPercent: percent,
  taxRate: percent,
  source: lineSourceSchema.nullable().default(null),
});
export type SalesDocumentLine = z.input<typeof salesDocumentLineSchema>;

const dateField = z.iso.date({ message: 'validation.invalid' });

/** Cash discount terms (Skonto): `percent` off when paid within `days` of the issue date. */
export const cashDiscountSchema = z.strictObject({
  percent: percent.gt(0, { message: 'validation.numberMin' }).max(99.99, { message: 'validation.numberMax' }),
  days: z
    .number({ message: 'validation.required' })
    .int({ message: 'validation.wholeNumber' })
    .min(1, { message: 'validation.numberMin' })
    .max(365, { message: 'validation.numberMax' }),
});
export type CashDiscount = z.infer<typeof cashDiscountSchema>;

/** A draft's editable content. */
export const salesDocumentBodySchema = z
  .strictObject({
    customerId: z.uuid({ message: 'validation.required' }),
    language: languageField,
    /** Issue date; today when not given. */
    issueDate: dateField.nullable().default(null),
    /** Payment due date of an invoice; issue date + 14 days when not given. */
    dueDate: dateField.nullable().default(null),
    /**
     * The delivery or service date (§ 14 (4) no. 6 UStG), or the first day of the service period; an invoice is not
     * issued without it (a down-payment invoice is: its work lies ahead).
     */
    serviceDate: dateField.nullable().default(null),
    /** The last day of the service period; none for a single date. */
    serviceEndDate: dateField.nullable().default(null),
    /** Until when an offer stands; offers only (no other document carries it). */
    validUntil: dateField.nullable().default(null),
    /** `standard` or `reverseCharge` (§ 13b UStG); a small business's documents are always `smallBusiness`. */
    taxTreatment: z
      .enum(['standard', 'reverseCharge'], { message: 'validation.invalid' })
      .default('standard'),
    /**
     * The work concerns a property (building, repair, maintenance): an invoice to a private customer then tells them
     * to keep it two years (§ 14 (4) no. 9 UStG).
     */
    propertyService: z.boolean({ message: 'validation.invalid' }).default(true),
    /** Skonto of an invoice; none when not given. */
    cashDiscount: cashDiscountSchema.nullable().default(null),
    title: optional(200),
    notes: multiLineText(2000),
    lines: z.array(salesDocumentLineSchema).max(200, { message: 'validation.tooLong' }),
  })
  .superRefine((body, ctx) => {
    if (body.serviceEndDate && (!body.serviceDate || body.serviceEndDate < body.serviceDate))
      ctx.addIssue({ code: 'custom', path: ['serviceEndDate'], message: 'validation.periodOrder' });
  });
export type SalesDocumentBody = z.input<typeof salesDocumentBodySchema>;

export const newSalesDocumentSchema = salesDocumentBodySchema.safeExtend({
  type: z.enum(['offer', 'order', 'invoice'], { message: 'validation.invalid' }),
});

export const partySchema = z.object({
  name: z.string(),
  street: z.string(),
  postalCode: z.string(),
  city: z.string(),
  country: z.string(),
  email: z.string(),
  vatId: z.string(),
});

const taxGroupSchema = z.object({
  taxRate: z.number(),
  netCents: z.number().int(),
  taxCents: z.number().int(),
});

/** A down-payment invoice a final invoice deducts: received, with its VAT per rate. */
export const deductionSchema = z.object({
  documentId: z.uuid(),
  number: z.string(),
  issueDate: z.string(),
  taxGroups: z.array(taxGroupSchema),
  netCents: z.number().int(),
  taxCents: z.number().int(),
  grossCents: z.number().int(),
});
export type Deduction = z.infer<typeof deductionSchema>;

export const salesDocumentSummarySchema = z
  .object({
    id: z.uuid(),
    type: z.enum(SALES_DOCUMENT_TYPES),
    status: z.enum(SALES_DOCUMENT_STATUSES),
    /** Given when the document is issued ("RE-2026-0001"); null for a draft. */
    number: z.string().nullable(),
    customerId: z.uuid(),
    customerName: z.string(),
    title: z.string(),
    language: z.enum(LANGUAGES),
    invoiceKind: z.enum(INVOICE_KINDS),
    issueDate: z.string(),
    dueDate: z.string().nullable(),
    netCents: z.number().int(),
    grossCents: z.number().int(),
    /** What is left to pay: the total less the down payments a final invoice deducts. */
    amountDueCents: z.number().int(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'SalesDocumentSummary' });
export type SalesDocumentSummary = z.infer<typeof salesDocumentSummarySchema>;

export const salesDocumentSchema = salesDocumentSummarySchema
  .extend({
    notes: z.string(),
    serviceDate: z.string().nullable(),
    serviceEndDate: z.string().nullable(),
    validUntil: z.string().nullable(),
    taxTreatment: z.enum(TAX_TREATMENTS),
    propertyService: z.boolean(),
    cashDiscount: cashDiscountSchema.nullable(),
    lines: z.array(salesDocumentLineSchema.extend({ netCents: z.number().int() })),
    taxGroups: z.array(taxGroupSchema),
    taxCents: z.number().int(),
    /** A final invoice's down payments received (as issued; a draft shows those paid now). */
    deductions: z.array(deductionSchema),
    /** The deductions' gross sum (BT-113). */
    prepaidCents: z.number().int(),
    /** The buyer as issued (a draft shows the customer as it is now); `private` is a consumer. */
    buyer: partySchema.extend({ buyerReference: z.string(), kind: z.enum(['business', 'private']) }),
    /** The document this one was made from (offer of an order, invoice of a credit note). */
    sourceDocumentId: z.uuid().nullable(),
    sourceType: z.enum(SALES_DOCUMENT_TYPES).nullable(),
    sourceNumber: z.string().nullable(),
    sourceIssueDate: z.string().nullable(),
    finalisedAt: z.iso.datetime().nullable(),
    sentAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'SalesDocument' });
export type SalesDocument = z.infer<typeof salesDocumentSchema>;

/** What a document may become (`convert`): with the invoice's kind, and for a down payment its share in percent. */
export const convertBodySchema = z
  .strictObject({
    type: z.enum(['order', 'invoice', 'creditNote'], { message: 'validation.invalid' }),
    /** The new document's language; the source's when not given. */
    language: languageField.optional(),
    /** An invoice's kind; a `standard` invoice of a job with down payments is its `final` invoice. */
    invoiceKind: z.enum(INVOICE_KINDS, { message: 'validation.invalid' }).default('standard'),
    /** A down-payment invoice's share of the source's net amount per tax rate, in percent. */
    downPaymentPercent: percent.gt(0, { message: 'validation.numberMin' }).optional(),
  })
  .superRefine((body, ctx) => {
    const downPayment = body.type === 'invoice' && body.invoiceKind === 'downPayment';
    if (downPayment !== (body.downPaymentPercent !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['downPaymentPercent'],
        message: downPayment ? 'validation.required' : 'validation.unknownField',
      });
    if (body.type !== 'invoice' && body.invoiceKind !== 'standard')
      ctx.addIssue({ code: 'custom', path: ['invoiceKind'], message: 'validation.invalid' });
  });
export type ConvertBody = z.input<typeof convertBodySchema>;

export const salesDocumentListQuerySchema = listQuerySchema.extend({
  type: z.enum(SALES_DOCUMENT_TYPES).optional(),
  status: z.enum(SALES_DOCUMENT_STATUSES).optional(),
});

export const draftOfferBodySchema = z.strictObject({
  customerId: z.uuid({ message: 'validation.required' }),
  language: languageField,
  /** The job in the user's words: "Heizungswartung Gasbrennwertkessel, Einfamilienhaus, Anfahrt 25 km". */
  description: multiLineText(2000).min(3, { message: 'validation.required' }),
});

/**
 * What a mail to the customer carries: the PDF; for an invoice or credit note instead the Factur-X PDF (the PDF with
 * its XML inside), or the XRechnung XML with the PDF as readable copy.
 */
export const DOCUMENT_MAIL_ATTACHMENTS = ['pdf', 'facturX', 'xrechnung'] as const;
export type DocumentMailAttachment = (typeof DOCUMENT_MAIL_ATTACHMENTS)[number];

export const documentMailBodySchema = z.strictObject({
  to: emailField,
  subject: requiredText(200),
  message: multiLineText(5000).min(1, { message: 'validation.required' }),
  attach: z.enum(DOCUMENT_MAIL_ATTACHMENTS, { message: 'validation.invalid' }),
});
export type DocumentMailBody = z.infer<typeof documentMailBodySchema>;

/** The mail the send dialog starts from: the customer's address and a text in the document's language. */
export const documentMailDraftSchema = z
  .object({
    to: z.string(),
    subject: z.string(),
    message: z.string(),
    attachments: z.array(z.enum(DOCUMENT_MAIL_ATTACHMENTS)),
    /** The company's address that the customer's replies go to; empty when the company details have none. */
    replyTo: z.string(),
  })
  .meta({ id: 'DocumentMailDraft' });
export type DocumentMailDraft = z.infer<typeof documentMailDraftSchema>;

/** A mail that took the document to a customer, with its delivery status from the outbox. */
export const documentMailSchema = z
  .object({
    id: z.uuid(),
    to: z.string(),
    subject: z.string(),
    status: z.enum(['queued', 'sent', 'not_sent', 'failed']),
    attachments: z.array(z.string()),
    createdAt: z.iso.datetime(),
    sentAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'DocumentMail' });
export type DocumentMail = z.infer<typeof documentMailSchema>;

const tags = ['handwerk'];
const params = uuidParam('documentId');
const permission = (action: 'read' | 'create' | 'update' | 'delete') =>
  ({ action, subject: 'SalesDocument' }) as const;

export const salesDocumentContracts = {
  list: defineContract({
    method: 'GET',
    path: '/handwerk/documents',
    operationId: 'listSalesDocuments',
    summary: "The company's offers, order confirmations, invoices and credit notes, newest first",
    tags,
    permission: permission('read'),
    querystring: salesDocumentListQuerySchema,
    responses: { 200: listOf(salesDocumentSummarySchema) },
  }),
  create: defineContract({
    method: 'POST',
    path: '/handwerk/documents',
    operationId: 'createSalesDocument',
    summary: 'Starts a draft offer, order confirmation or invoice',
    tags,
    permission: permission('create'),
    body: newSalesDocumentSchema,
    responses: { 201: salesDocumentSchema },
  }),
  draftOffer: defineContract({
    method: 'POST',
    path: '/handwerk/documents/drafted-offers',
    operationId: 'draftOfferFromKnowledge',
    summary:
      "Drafts an offer from a description of the job: lines and prices from the company's price lists, each citing its passage",
    tags,
    permission: permission('create'),
    body: draftOfferBodySchema,
    responses: { 201: salesDocumentSchema },
  }),
  get: defineContract({
    method: 'GET',
    path: '/handwerk/documents/:documentId',
    operationId: 'getSalesDocument',
    summary: 'One document with its lines and totals',
    tags,
    permission: permission('read'),
    params,
    responses: { 200: salesDocumentSchema },
  }),
  update: defineContract({
    method: 'PUT',
    path: '/handwerk/documents/:documentId',
    operationId: 'updateSalesDocument',
    summary: 'Changes a draft (DOCUMENT_FINALISED once issued)',
    tags,
    permission: permission('update'),
    params,
    body: salesDocumentBodySchema,
    responses: { 200: salesDocumentSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/handwerk/documents/:documentId',
    operationId: 'deleteSalesDocument',
    summary: 'Deletes a draft (an issued document stays: a credit note corrects an invoice)',
    tags,
    permission: permission('delete'),
    params,
    responses: { 204: z.null() },
  }),
  finalise: defineContract({
    method: 'POST',
    path: '/handwerk/documents/:documentId/finalise',
    operationId: 'finaliseSalesDocument',
    summary:
      'Issues a draft: the next number of its series, the buyer and seller as they are now; no edits after',
    tags,
    permission: permission('update'),
    params,
    responses: { 200: salesDocumentSchema },
  }),
  setStatus: defineContract({
    method: 'POST',
    path: '/handwerk/documents/:documentId/status',
    operationId: 'setSalesDocumentStatus',
    summary: 'Marks an issued offer or order confirmation accepted, or an issued invoice paid',
    tags,
    permission: permission('update'),
    params,
    body: z.strictObject({ status: z.enum(['accepted', 'paid'], { message: 'validation.invalid' }) }),
    responses: { 200: salesDocumentSchema },
  }),
  convert: defineContract({
    method: 'POST',
    path: '/handwerk/documents/:documentId/convert',
    operationId: 'convertSalesDocument',
    summary:
      'A new draft from this document: an order confirmation or invoice from an offer, a credit note of an invoice',
    tags,
    permission: permission('create'),
    params,
    body: convertBodySchema,
    responses: { 201: salesDocumentSchema },
  }),
  pdf: defineContract({
    method: 'GET',
    path: '/handwerk/documents/:documentId/pdf',
    operationId: 'downloadSalesDocumentPdf',
    summary: 'The document as PDF in its language (a draft is marked as such)',
    tags,
    permission: permission('read'),
    params,
    responses: { 200: fileResponse('The PDF, as a download', ['application/pdf']) },
  }),
  xrechnung: defineContract({
    method: 'GET',
    path: '/handwerk/documents/:documentId/xrechnung.xml',
    operationId: 'downloadXRechnung',
    summary:
      'An issued invoice or credit note as XRechnung 3.0 (UN/CEFACT CII, EN 16931, buyer reference BT-10)',
    tags,
    permission: permission('read'),
    params,
    responses: { 200: fileResponse('The XRechnung XML, as a download', ['application/xml']) },
  }),
  facturX: defineContract({
    method: 'GET',
    path: '/handwerk/documents/:documentId/factur-x.pdf',
    operationId: 'downloadFacturX',
    summary:
      'An issued invoice or credit note as ZUGFeRD / Factur-X: PDF/A-3 with the CII XML embedded (EN 16931)',
    tags,
    permission: permission('read'),
    params,
    responses: { 200: fileResponse('The Factur-X PDF, as a download', ['application/pdf']) },
  }),
  mailDraft: defineContract({
    method: 'GET',
    path: '/handwerk/documents/:documentId/mail-draft',
    operationId: 'draftDocumentMail',
    summary:
      "The mail to send an issued document with: the customer's address, subject and text in its language",
    tags,
    permission: permission('update'),
    params,
    responses: { 200: documentMailDraftSchema },
  }),
  mails: defineContract({
    method: 'GET',
    path: '/handwerk/documents/:documentId/mails',
    operationId: 'listDocumentMails',
    summary: 'The mails that took this document to a customer, newest first, with their delivery status',
    tags,
    permission: permission('read'),
    params,
    responses: { 200: z.object({ items: z.array(documentMailSchema) }) },
  }),
  sendMail: defineContract({
    method: 'POST',
    path: '/handwerk/documents/:documentId/mails',
    operationId: 'sendDocumentMail',
    summary:
      'Sends an issued document to a customer through the outbox, with the PDF (or the e-invoice) attached',
    tags,
    permission: permission('update'),
    params,
    body: documentMailBodySchema,
    responses: { 202: documentMailSchema },
  }),
};
