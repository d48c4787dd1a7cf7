import type { SalesDocument } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import type { StoredParty } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { Actor } from '../auth/actor.ts';
import { companyLogo } from '../company/company-logo.service.ts';
import { ciiInvoiceXml } from './cii-invoice.ts';
import { salesDocumentPdf } from './sales-document-pdf.ts';
import { presentDocument } from './sales-document-view.ts';
import { loadSalesDocument } from './sales-documents.service.ts';

interface Issued {
  document: SalesDocument;
  seller: StoredParty;
  companyId: string;
  fileStem: string;
}

/** An issued invoice or credit note the actor may read, with the seller as it was when it was issued. */
async function issuedInvoice(ctx: AppContext, actor: Actor, documentId: string): Promise<Issued> {
  const { row, customer, sourceNumber } = await loadSalesDocument(ctx.db, actor, documentId);
  if (row.type !== 'invoice' && row.type !== 'creditNote') throw new AppError('EINVOICE_ONLY_FOR_INVOICES');
  if (!row.number || !row.seller) throw new AppError('DOCUMENT_NOT_FINALISED');
  return {
    document: presentDocument(row, customer, sourceNumber),
    seller: row.seller,
    companyId: row.companyId,
    fileStem: row.number.replace(/[^\w.-]/g, '_'),
  };
}

export async function downloadXRechnung(
  ctx: AppContext,
  actor: Actor,
  documentId: string,
): Promise<{ fileName: string; xml: string }> {
  const { document, seller, fileStem } = await issuedInvoice(ctx, actor, documentId);
  return { fileName: `${fileStem}-xrechnung.xml`, xml: ciiInvoiceXml(document, seller, 'xrechnung') };
}

/** The regular PDF of the document as PDF/A-3 with its CII XML (Factur-X EN 16931 profile) embedded. */
export async function facturXPdf(ctx: AppContext, issued: Issued): Promise<Buffer> {
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
