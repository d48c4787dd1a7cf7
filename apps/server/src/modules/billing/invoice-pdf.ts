import { existsSync } from 'node:fs';
import { invoiceStatusShown, type Language } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import { translate } from '../../i18n/translator.ts';
import type { InvoiceRow } from './invoices.queries.ts';

/** Debian's DejaVu Sans (fonts-dejavu-core): Latin, Polish and Cyrillic; without it PDFKit's Helvetica (Latin-1). */
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

/**
 * The invoice as a PDF, labelled in the reader's language. PDFKit cannot shape Arabic script, so an Arabic reader
 * gets the English labels; without DejaVu on the machine only languages in Latin-1 keep theirs.
 */
export async function invoicePdf(ctx: AppContext, invoice: InvoiceRow, language: Language): Promise<Buffer> {
  const unicode = existsSync(FONT) && existsSync(BOLD);
  const latin1 = ['de', 'en', 'fr', 'it', 'pt'];
  const lang: Language = language === 'ar' || (!unicode && !latin1.includes(language)) ? 'en' : language;
  const t = (key: string, vars?: Record<string, unknown>) => translate(lang, `billing.invoice.${key}`, vars);
  const money = (cents: number) =>
    new Intl.NumberFormat(lang, { style: 'currency', currency: invoice.currency.toUpperCase() }).format(
      cents / 100,
    );
  const date = (d: Date | null) => (d ? new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(d) : '–');
  const title = (await ctx.settings.current()).general.appTitle;

  // Loaded on first use: few requests make a PDF, and pdfkit with its font engine is large.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${t('title')} ${invoice.number ?? ''}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', resolve));
  if (unicode) {
    doc.registerFont('body', FONT);
    doc.registerFont('bold', BOLD);
  } else {
    doc.registerFont('body', 'Helvetica');
    doc.registerFont('bold', 'Helvetica-Bold');
  }
  doc.font('bold').fontSize(20).text(title);
  doc
    .moveDown(0.5)
    .fontSize(14)
    .text(`${t('title')} ${invoice.number ?? ''}`);
  doc.moveDown().font('body').fontSize(10);
  const line = (label: string, value: string) => {
    doc.font('bold').text(`${label}: `, { continued: true }).font('body').text(value);
  };
  if (invoice.customerName || invoice.companyName)
    line(t('customer'), invoice.customerName ?? invoice.companyName!);
  if (invoice.customerAddress) doc.text(invoice.customerAddress);
  doc.moveDown();
  line(t('issued'), date(invoice.issuedAt));
  line(t('period'), `${date(invoice.periodStart)} – ${date(invoice.periodEnd)}`);
  if (invoice.plan) line(t('plan'), translate(lang, `plans.${invoice.plan}`));
  line(t('status'), translate(lang, `billing.invoiceStatus.${invoiceStatusShown(invoice)}`));
  doc.moveDown();
  line(t('total'), money(invoice.totalCents));
  line(t('paid'), money(invoice.paidCents));
  line(t('due'), money(Math.max(0, invoice.totalCents - invoice.paidCents)));
  doc
    .moveDown(2)
    .fontSize(8)
    .fillColor('#666666')
    .text(t('reference', { id: invoice.stripeInvoiceId }));
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
