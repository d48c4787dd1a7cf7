import { existsSync } from 'node:fs';
import type { Language, SalesDocument } from '@werkwissen/shared';
import PDFDocument from 'pdfkit';
import type { StoredParty } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { leftToRight, textWriter } from './pdf-bidi.ts';

/** Debian's DejaVu Sans (fonts-dejavu-core, installed by .ci/run and the Dockerfile): Latin, Cyrillic and Arabic. */
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

const MARGIN = 50;
const FOOTER = 70;

export interface PdfInput {
  document: SalesDocument;
  /** The seller as issued, or (a draft) the company's details now. */
  seller: StoredParty;
  logo: Buffer | null;
  /** The CII XML of an issued invoice or credit note: the PDF becomes a Factur-X (PDF/A-3b with it embedded). */
  facturX?: string;
}

/**
 * Makes the PDF a Factur-X: the CII XML embedded as `factur-x.xml` with relationship Alternative (listed in the
 * catalog's /AF, as PDF/A-3 requires), and the Factur-X XMP extension schema naming it (document type, file name,
 * version, conformance level EN 16931). PDFKit's PDF/A-3b subset adds the sRGB output intent and the pdfaid metadata.
 */
function embedFacturX(doc: PDFKit.PDFDocument, xml: string, info: { Title: string; Author: string }): void {
  const now = new Date();
  // PDFKit writes /AFRelationship from `relationship`; its type definitions do not list it yet.
  const options: PDFKit.Mixins.PDFAttachmentOptions & { relationship: 'Alternative' } = {
    name: 'factur-x.xml',
    type: 'text/xml',
    relationship: 'Alternative',
    description: 'Factur-X invoice (EN 16931)',
    creationDate: now,
    modifiedDate: now,
  };
  doc.file(Buffer.from(xml, 'utf8'), options);
  doc.appendXML(FACTUR_X_XMP);
  doc.appendXML(`
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(info.Title)}</rdf:li></rdf:Alt></dc:title>
            <dc:creator><rdf:Seq><rdf:li>${escapeXml(info.Author)}</rdf:li></rdf:Seq></dc:creator>
        </rdf:Description>
`);
}

function escapeXml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The Factur-X 1.0 XMP: the PDF/A extension schema describing the fx namespace, then its values. */
const FACTUR_X_XMP = `
        <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
            <pdfaExtension:schemas>
                <rdf:Bag>
                    <rdf:li rdf:parseType="Resource">
                        <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
                        <pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>
                        <pdfaSchema:prefix>fx</pdfaSchema:prefix>
                        <pdfaSchema:property>
                            <rdf:Seq>
                                <rdf:li rdf:parseType="Resource"><pdfaProperty:name>DocumentFileName</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The name of the embedded XML document</pdfaProperty:description></rdf:li>
                                <rdf:li rdf:parseType="Resource"><pdfaProperty:name>DocumentType</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The type of the hybrid document in capital letters, e.g. INVOICE or ORDER</pdfaProperty:description></rdf:li>
                                <rdf:li rdf:parseType="Resource"><pdfaProperty:name>Version</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The actual version of the standard applying to the embedded XML document</pdfaProperty:description></rdf:li>
                                <rdf:li rdf:parseType="Resource"><pdfaProperty:name>ConformanceLevel</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The conformance level of the embedded XML document</pdfaProperty:description></rdf:li>
                            </rdf:Seq>
                        </pdfaSchema:property>
                    </rdf:li>
                </rdf:Bag>
            </pdfaExtension:schemas>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">
            <fx:DocumentType>INVOICE</fx:DocumentType>
            <fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>
            <fx:Version>1.0</fx:Version>
            <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
        </rdf:Description>
`;

/** A document's fixed texts (`documents.*`), amounts, numbers and dates in its language, as its PDF and mail write them. */
export function documentFormat(lang: Language) {
  const locale = lang === 'ar' ? 'ar-u-nu-latn' : lang;
  return {
    t: (key: string, vars?: Record<string, unknown>) => translate(lang, `documents.${key}`, vars),
    money: (cents: number) =>
      new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(cents / 100),
    number: (n: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(n),
    date: (iso: string) =>
      new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(`${iso}T00:00:00Z`),
      ),
  };
}

/**
 * The document as an A4 PDF with its fonts embedded: logo, seller and buyer, lines, totals per tax rate, payment
 * terms, and on every page the seller's register, tax and bank data and "page n of m". Every fixed text is in the
 * document's language (`documents.*`).
 */
export async function salesDocumentPdf({ document: d, seller, logo, facturX }: PdfInput): Promise<Buffer> {
  if (!existsSync(FONT) || !existsSync(BOLD)) throw new Error(`${FONT} is missing (fonts-dejavu-core)`);
  const lang = d.language as Language;
  const rtl = lang === 'ar';
  const align = rtl ? 'right' : 'left';
  const { t, money, number, date } = documentFormat(lang);
  const title = t(`type.${d.type}`);

  const documentInfo = { Title: `${title} ${d.number ?? ''}`.trim(), Author: String(seller.name) };
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: FOOTER + 20 },
    bufferPages: true,
    lang,
    // PDFKit copies Title and Author into the XMP unescaped ("Müller & Söhne" would break it), so a Factur-X
    // carries them in its own, escaped XMP instead (PDF/A asks no Info entry the XMP lacks, not the reverse).
    info: facturX ? {} : documentInfo,
    ...(facturX ? { subset: 'PDF/A-3b' as const, pdfVersion: '1.7' as const } : {}),
  });
  if (facturX) embedFacturX(doc, facturX, documentInfo);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', resolve));
  doc.registerFont('body', FONT);
  doc.registerFont('bold', BOLD);
  const width = doc.page.width - 2 * MARGIN;
  const { write, heightOf } = textWriter(doc, rtl);
  // Codes keep their own order inside Arabic text ("991-01234-44" would otherwise be split at its hyphens).
  const code = (value: string) => (rtl ? leftToRight(value) : value);

  if (logo) doc.image(logo, rtl ? MARGIN : doc.page.width - MARGIN - 100, MARGIN, { fit: [100, 50] });
  doc.font('bold').fontSize(9);
  write(String(seller.name), { x: MARGIN, y: MARGIN, width: width - 110, align });
  doc.font('body');
  write(
    [seller.street, `${seller.postalCode} ${seller.city}`.trim(), seller.email].filter(Boolean).join(' · '),
    { width: width - 110, align },
  );

  doc.moveDown(2).font('bold').fontSize(10);
  write(d.buyer.name, { align });
  doc.font('body');
  for (const part of [d.buyer.street, `${d.buyer.postalCode} ${d.buyer.city}`.trim(), d.buyer.country])
    if (part) write(part, { align });

  doc.moveDown(2).font('bold').fontSize(16);
  write(`${title} ${d.number ?? ''}`.trim(), { align });
  if (!d.number) {
    doc.fontSize(10).fillColor('#b00020');
    write(t('draft'), { align });
    doc.fillColor('black');
  }
  doc.font('body').fontSize(9).moveDown(0.5);
  const facts: [string, string][] = [[t('date'), date(d.issueDate)]];
  if (d.dueDate && (d.type === 'invoice' || d.type === 'creditNote'))
    facts.push([t('dueDate'), date(d.dueDate)]);
  if (d.buyer.buyerReference) facts.push([t('buyerReference'), code(d.buyer.buyerReference)]);
  if (d.buyer.vatId) facts.push([t('customerVatId'), code(d.buyer.vatId)]);
  if (d.sourceNumber && d.type === 'creditNote') facts.push(['', t('corrects', { number: d.sourceNumber })]);
  for (const [label, value] of facts) write(label ? `${label}: ${value}` : value, { align });
  if (d.title) {
    doc.moveDown(0.5).font('bold');
    write(d.title, { align });
    doc.font('body');
  }

  // The lines: position, description, quantity and unit, unit price, discount, amount.
  const columns = [
    { key: 'position', width: 30 },
    { key: 'description', width: width - 30 - 70 - 75 - 50 - 80 },
    { key: 'quantity', width: 70 },
    { key: 'unitPrice', width: 75 },
    { key: 'discount', width: 50 },
    { key: 'amount', width: 80 },
  ];
  const ordered = rtl ? [...columns].reverse() : columns;
  const row = (cells: Record<string, string>, font: 'body' | 'bold') => {
    doc.font(font).fontSize(9);
    const height = Math.max(...ordered.map((c) => heightOf(cells[c.key] ?? '', c.width - 6)));
    if (doc.y + height > doc.page.height - FOOTER - 20) doc.addPage();
    const top = doc.y;
    let x = MARGIN;
    for (const c of ordered) {
      const numeric = c.key !== 'description';
      write(cells[c.key] ?? '', {
        x: x + 3,
        y: top,
        width: c.width - 6,
        align: numeric ? (rtl ? 'left' : 'right') : align,
      });
      x += c.width;
    }
    doc.x = MARGIN;
    doc.y = top + height + 4;
  };
  doc.moveDown();
  row(Object.fromEntries(columns.map((c) => [c.key, t(c.key)])), 'bold');
  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + width, doc.y)
    .stroke();
  doc.y += 4;
  d.lines.forEach((line, i) => {
    row(
      {
        position: String(i + 1),
        description: line.description,
        quantity: `${number(line.quantity)} ${line.unit}`.trim(),
        unitPrice: money(line.unitPriceCents),
        discount: line.discountPercent ? `${number(line.discountPercent)} %` : '',
        amount: money(line.netCents),
      },
      'body',
    );
  });
  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + width, doc.y)
    .stroke();
  doc.y += 6;

  const total = (label: string, value: string, font: 'body' | 'bold' = 'body') => {
    if (doc.y + 14 > doc.page.height - FOOTER - 20) doc.addPage();
    const top = doc.y;
    doc.font(font).fontSize(9);
    // Mirrored right to left: the value under the amount column, its label beside it.
    write(label, { x: rtl ? MARGIN + 90 : MARGIN, y: top, width: width - 90, align: rtl ? 'left' : 'right' });
    write(value, { x: rtl ? MARGIN : MARGIN + width - 85, y: top, width: 85, align: rtl ? 'left' : 'right' });
    doc.x = MARGIN;
    doc.y = top + 14;
  };
  total(t('netTotal'), money(d.netCents));
  for (const g of d.taxGroups)
    total(t('taxLine', { rate: number(g.taxRate), net: money(g.netCents) }), money(g.taxCents));
  total(t('grossTotal'), money(d.grossCents), 'bold');

  if (d.type === 'invoice' && d.dueDate && d.number) {
    doc.moveDown().font('body');
    write(t('paymentTerms', { date: date(d.dueDate), number: d.number }), { align });
  }
  if (d.notes) {
    doc.moveDown();
    write(d.notes, { align });
  }

  // On every page: the seller's register, tax and bank data, and the page number.
  const footer = [
    [
      String(seller.name),
      seller.managingDirector ? `${t('managingDirector')}: ${seller.managingDirector}` : '',
    ],
    [
      seller.registerNumber
        ? `${t('register')}: ${code(`${seller.registryCourt} ${seller.registerNumber}`.trim())}`
        : '',
      seller.vatId ? `${t('vatId')}: ${code(seller.vatId)}` : '',
      seller.taxNumber ? `${t('taxNumber')}: ${code(String(seller.taxNumber))}` : '',
    ],
    [
      seller.iban ? `${t('bank')}: ${code(`IBAN ${seller.iban}`)}` : '',
      seller.bic ? code(`BIC ${seller.bic}`) : '',
    ],
  ]
    .map((parts) => parts.filter(Boolean).join(' · '))
    .filter(Boolean);
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const top = doc.page.height - FOOTER;
    // Writing below the bottom margin would add a page: lift it while the footer is written.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('body').fontSize(7).fillColor('#555555');
    write(footer.join('\n'), { x: rtl ? MARGIN + 80 : MARGIN, y: top, width: width - 80, align });
    write(t('page', { page: i + 1, pages: range.count }), {
      x: rtl ? MARGIN : MARGIN + width - 80,
      y: top,
      width: 80,
      align: rtl ? 'left' : 'right',
    });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
