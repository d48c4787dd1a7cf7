import { existsSync } from 'node:fs';
import type { Language, SalesDocument } from '@werkwissen/shared';
import type { StoredParty } from '../../db/schema/index.ts';
import { documentFormat } from './document-format.ts';
import { documentTitle, legalNotices, paymentTerms, servicePeriod } from './document-texts.ts';
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

/** A label and its value as one unbreakable piece ("Steuernummer: 27/123/45678"): a line breaks between pieces. */
const piece = (label: string, value: string) => `${label}: ${value}`.replaceAll(' ', '\u00a0');

/** Room the logo takes at the top: 100 × 50 points, and a gap to the text beside and below it. */
const LOGO = { width: 100, height: 50, gap: 10 };

/**
 * The document as an A4 PDF with its fonts embedded: logo, seller and buyer, the facts (dates, service date or
 * period, references), lines, totals per tax rate, a final invoice's deducted down payments, the legal notices,
 * payment terms, and on every page the seller's register, tax and bank data and "page n of m". Every fixed text is
 * in the document's language (`documents.*`); an Arabic document is mirrored, with codes, numbers and German
 * addresses ("70182 Stuttgart") kept left to right.
 */
export async function salesDocumentPdf({ document: d, seller, logo, facturX }: PdfInput): Promise<Buffer> {
  if (!existsSync(FONT) || !existsSync(BOLD)) throw new Error(`${FONT} is missing (fonts-dejavu-core)`);
  const lang = d.language as Language;
  const rtl = lang === 'ar';
  const align = rtl ? 'right' : 'left';
  const format = documentFormat(lang);
  const { t, money, number, date } = format;
  const title = documentTitle(d, format);

  const documentInfo = { Title: `${title} ${d.number ?? ''}`.trim(), Author: String(seller.name) };
  // Loaded on first use: few requests make a PDF, and pdfkit with its font engine is large.
  const { default: PDFDocument } = await import('pdfkit');
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
  // Codes keep their own order inside Arabic text ("991-01234-44" would otherwise be split at its hyphens), and so
  // does a German address line: "70182 Stuttgart", not "Stuttgart 70182".
  const code = (value: string) => (rtl && value ? leftToRight(value) : value);
  const place = (p: { postalCode: unknown; city: unknown }) => code(`${p.postalCode} ${p.city}`.trim());

  // The logo in the top corner on the reading side's far end; the seller's lines beside it, never under it.
  const beside = logo ? LOGO.width + LOGO.gap : 0;
  if (logo)
    doc.image(logo, rtl ? MARGIN : doc.page.width - MARGIN - LOGO.width, MARGIN, {
      fit: [LOGO.width, LOGO.height],
    });
  const sellerBox = { x: rtl ? MARGIN + beside : MARGIN, width: width - beside };
  doc.font('bold').fontSize(9);
  write(String(seller.name), { ...sellerBox, y: MARGIN, align });
  doc.font('body');
  write([seller.street, place(seller), seller.email].filter(Boolean).join(' · '), { ...sellerBox, align });
  if (logo) doc.y = Math.max(doc.y, MARGIN + LOGO.height);
  doc.x = MARGIN;

  doc.moveDown(2).font('bold').fontSize(10);
  write(d.buyer.name, { align });
  doc.font('body');
  for (const part of [d.buyer.street, place(d.buyer), d.buyer.country]) if (part) write(part, { align });

  doc.moveDown(2).font('bold').fontSize(16);
  write(`${title} ${d.number ?? ''}`.trim(), { align });
  if (!d.number) {
    doc.fontSize(10).fillColor('#b00020');
    write(t('draft'), { align });
    doc.fillColor('black');
  }
  doc.font('body').fontSize(9).moveDown(0.5);
  const facts: [string, string][] = [[t('date'), date(d.issueDate)]];
  const service = servicePeriod(d, format);
  if (service) facts.push(service);
  if (d.dueDate && (d.type === 'invoice' || d.type === 'creditNote'))
    facts.push([t('dueDate'), date(d.dueDate)]);
  if (d.validUntil && d.type === 'offer') facts.push([t('validUntil'), date(d.validUntil)]);
  if (d.buyer.buyerReference) facts.push([t('buyerReference'), code(d.buyer.buyerReference)]);
  if (d.buyer.vatId) facts.push([t('customerVatId'), code(d.buyer.vatId)]);
  for (const [label, value] of facts) write(`${label}: ${value}`, { align });
  if (d.sourceNumber && d.sourceIssueDate) {
    const source = { number: code(d.sourceNumber), date: date(d.sourceIssueDate) };
    if (d.type === 'creditNote') write(t('cancels', source), { align });
    else if (d.invoiceKind !== 'downPayment')
      write(t('basedOn', { ...source, document: t(`type.${d.sourceType}`) }), { align });
  }
  if (d.title) {
    doc.moveDown(0.5).font('bold');
    write(d.title, { align });
    doc.font('body');
  }

  // The lines: position, description, quantity and unit, unit price, discount, amount. Each figure column is as
  // wide as its heading in this language needs (bold, one line); the description takes the rest.
  doc.font('bold').fontSize(9);
  const figure = (key: string, least: number) => ({
    key,
    width: Math.max(least, Math.ceil(doc.widthOfString(t(key))) + 8),
  });
  const figures = [
    figure('quantity', 70),
    figure('unitPrice', 75),
    figure('discount', 50),
    figure('amount', 80),
  ];
  const position = figure('position', 30);
  const used = [position, ...figures].reduce((sum, c) => sum + c.width, 0);
  const columns = [position, { key: 'description', width: width - used }, ...figures];
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
    doc.font(font).fontSize(9);
    const height = heightOf(label, width - 90);
    if (doc.y + height > doc.page.height - FOOTER - 20) doc.addPage();
    const top = doc.y;
    // Mirrored right to left: the value under the amount column, its label beside it.
    write(label, { x: rtl ? MARGIN + 90 : MARGIN, y: top, width: width - 90, align: rtl ? 'left' : 'right' });
    write(value, { x: rtl ? MARGIN : MARGIN + width - 85, y: top, width: 85, align: rtl ? 'left' : 'right' });
    doc.x = MARGIN;
    doc.y = top + Math.max(height, 14);
  };
  total(t('netTotal'), money(d.netCents));
  // Without standard VAT (§ 13b, § 19) the document shows no tax, only the notice why.
  if (d.taxTreatment === 'standard')
    for (const g of d.taxGroups)
      total(t('taxLine', { rate: number(g.taxRate), net: money(g.netCents) }), money(g.taxCents));
  total(t('grossTotal'), money(d.grossCents), 'bold');
  // A final invoice: each down payment received with its VAT, deducted (§ 14 (5) UStG), then what is left to pay.
  if (d.deductions.length > 0) {
    doc.y += 4;
    total(t('deductions'), '');
    for (const x of d.deductions)
      total(
        t('deductionLine', {
          number: code(x.number),
          date: date(x.issueDate),
          net: money(x.netCents),
          tax: money(x.taxCents),
        }),
        money(-x.grossCents),
      );
    total(t('amountDue'), money(d.amountDueCents), 'bold');
    const deductedTax = d.deductions.reduce((sum, x) => sum + x.taxCents, 0);
    if (d.taxTreatment === 'standard') total(t('remainingTax'), money(d.taxCents - deductedTax));
  }

  const closing = [...legalNotices(d, format), ...paymentTerms(d, format)];
  for (const text of closing) {
    doc.moveDown(0.6).font('body');
    if (doc.y + heightOf(text, width) > doc.page.height - FOOTER - 20) doc.addPage();
    write(text, { align });
  }
  if (d.notes) {
    doc.moveDown();
    write(d.notes, { align });
  }

  // On every page: the seller's register, tax and bank data, and the page number. Each label stays with its value.
  const footer = [
    [
      String(seller.name),
      seller.managingDirector ? piece(t('managingDirector'), String(seller.managingDirector)) : '',
    ],
    [
      seller.registerNumber
        ? piece(t('register'), code(`${seller.registryCourt} ${seller.registerNumber}`.trim()))
        : '',
      seller.vatId ? piece(t('vatId'), code(String(seller.vatId))) : '',
      seller.taxNumber ? piece(t('taxNumber'), code(String(seller.taxNumber))) : '',
    ],
    [
      seller.iban ? piece(t('bank'), code(`IBAN ${seller.iban}`)) : '',
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
