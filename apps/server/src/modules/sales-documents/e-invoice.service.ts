import type { SalesDocument } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import type { StoredParty } from '../../db/schema/index.ts';
import { companyLogo } from '../company/company-logo.service.ts';
import { salesDocumentPdf } from './sales-document-pdf.ts';
import { loadSalesDocument } from './sales-documents.service.ts';

interface Issued {
  document: SalesDocument;
  seller: StoredParty;
  companyId: string;
  fileStem: string;
}

/** An issued invoice or credit note the actor may read, with the seller as it was when it was issued. */
async function issuedInvoice(ctx: AppContext, actor: Actor, documentId: string): Promise<Issued> {
  const { row, document } = await loadSalesDocument(ctx.db, actor, documentId);
  if (row.type !== 'invoice' && row.type !== 'creditNote') throw new AppError('EINVOICE_ONLY_FOR_INVOICES');
  if (!row.number || !row.seller) throw new AppError('DOCUMENT_NOT_FINALISED');
  return {
    document,
    seller: row.seller,
    companyId: row.companyId,
    fileStem: row.number.replace(/[^\w.-]/g, '_'),
  };
}

/** The CII writer, loaded on first use: few requests make an e-invoice, and its XML builder is large. */
const ciiWriter = () => import('./cii-invoice.ts');

/**
 * The XRechnung of an issued invoice. XRechnung is delivered electronically and needs the buyer's electronic address
 * (PEPPOL-EN16931-R010): an invoice issued to a customer without e-mail has none (EINVOICE_BUYER_ADDRESS_MISSING);
 * its Factur-X and PDF, which do not need one, remain.
 */
export async function xRechnungOf(issued: Pick<Issued, 'document' | 'seller'>): Promise<string> {
  if (!issued.document.buyer.email) throw new AppError('EINVOICE_BUYER_ADDRESS_MISSING');
  const { ciiInvoiceXml } = await ciiWriter();
  return ciiInvoiceXml(issued.document, issued.seller, 'xrechnung');
}

export async function downloadXRechnung(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
): Promise<{ fileName: string; xml: string }> {
  const issued = await issuedInvoice(ctx, actor, documentId);
  return { fileName: `${issued.fileStem}-xrechnung.xml`, xml: await xRechnungOf(issued) };
}

/** The regular PDF of the document as PDF/A-3 with its CII XML (Factur-X EN 16931 profile) embedded. */
export async function facturXPdf(ctx: AppContext, issued: Issued): Promise<Buffer> {
  const { ciiInvoiceXml } = await ciiWriter();
  return salesDocumentPdf({
    document: issued.document,
    seller: issued.seller,
    logo: await companyLogo(ctx, issued.companyId),
    facturX: ciiInvoiceXml(issued.document, issued.seller, 'facturX'),
  });
}

export async function downloadFacturX(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
): Promise<{ fileName: string; pdf: Buffer }> {
  const issued = await issuedInvoice(ctx, actor, documentId);
  return { fileName: `${issued.fileStem}-factur-x.pdf`, pdf: await facturXPdf(ctx, issued) };
}
