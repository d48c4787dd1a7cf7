import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream } from '@cantoo/pdf-lib';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { ciiInvoiceXml } from './cii-invoice.ts';
import { COMPANY, issuedInvoice as invoice } from './handwerk-fixtures.ts';
import { salesDocumentPdf } from './sales-document-pdf.ts';

const pdfjsFolder = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** The text of each page, as pdf.js reads it. */
async function pagesOf(pdf: Buffer): Promise<string[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({
    data: new Uint8Array(pdf),
    standardFontDataUrl: `${join(pdfjsFolder, 'standard_fonts')}/`,
  }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages;
}

describe('the document PDF', () => {
  it('writes every fixed text in the document’s language, with seller, bank and register data and page numbers', async () => {
    const pdf = await salesDocumentPdf({ document: invoice('de', 60), seller: COMPANY, logo: null });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The TrueType font travels with the file.
    expect(pdf.toString('latin1')).toContain('/FontFile2');
    const pages = await pagesOf(pdf);
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((text, i) => {
      expect(text).toContain(`Seite ${i + 1} von ${pages.length}`);
      expect(text).toContain('IBAN DE89370400440532013000');
      expect(text).toContain('Amtsgericht Charlottenburg HRB 12345 B');
      expect(text).toContain('USt-IdNr.: DE136695976');
    });
    const first = pages[0]!;
    for (const label of [
      'Rechnung RE-2026-0042',
      'Einzelpreis',
      'Ihre Referenz: 991-01234-44',
      'Müller Haustechnik GmbH',
    ])
      expect(first).toContain(label);
    const last = pages.at(-1)!;
    expect(last).toContain('Summe netto');
    expect(last).toContain('USt. 19 % auf');
    expect(last).toContain(
      'Bitte überweisen Sie den Gesamtbetrag bis zum 16.03.2026 unter Angabe von RE-2026-0042.',
    );
  });

  it('speaks Russian and English when the document does', async () => {
    const ru = (
      await pagesOf(await salesDocumentPdf({ document: invoice('ru', 2), seller: COMPANY, logo: null }))
    ).join(' ');
    expect(ru).toContain('Счёт RE-2026-0042');
    expect(ru).toContain('Страница 1 из 1');
    const en = (
      await pagesOf(await salesDocumentPdf({ document: invoice('en', 2), seller: COMPANY, logo: null }))
    ).join(' ');
    expect(en).toContain('Invoice RE-2026-0042');
    expect(en).toContain('Total excluding VAT');
    expect(en).not.toContain('Rechnung');
  });

  it('sets an Arabic invoice right to left, with numbers and codes whole and the amounts on the left', async () => {
    const pdf = await salesDocumentPdf({ document: invoice('ar', 2), seller: COMPANY, logo: null });
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const page = await (await getDocument({ data: new Uint8Array(pdf) }).promise).getPage(1);
    const items = (await page.getTextContent()).items.flatMap((item) =>
      'str' in item && item.str.trim() ? [{ text: item.str, x: item.transform[4] as number }] : [],
    );
    const texts = items.map((item) => item.text);
    // pdf.js reads each line back in logical order only when its runs were set in the right visual order.
    for (const line of ['فاتورة RE-2026-0042', 'مرجعكم: 991-01234-44', 'سعر الوحدة', 'الصفحة 1 من 1'])
      expect(texts).toContain(line);
    expect(texts.some((text) => text.startsWith('ضريبة القيمة المضافة 19٪ على'))).toBe(true);
    const x = (text: string) => items.find((item) => item.text === text)!.x;
    expect(x('المجموع بدون ضريبة القيمة المضافة')).toBeGreaterThan(x('€ 183.83'));
  });

  it('marks a draft as not issued', async () => {
    const draft = { ...invoice('en', 1), number: null, status: 'draft' as const };
    const text = (
      await pagesOf(await salesDocumentPdf({ document: draft, seller: COMPANY, logo: null }))
    ).join(' ');
    expect(text).toContain('Draft – not issued');
  });

  it('as Factur-X is PDF/A-3b with the CII XML embedded as factur-x.xml, relationship Alternative', async () => {
    const document = invoice('de', 3);
    const seller = { ...COMPANY, name: 'Müller & Söhne <Haustechnik> GmbH' };
    const xml = ciiInvoiceXml(document, seller, 'facturX');
    const pdf = await salesDocumentPdf({ document, seller, logo: null, facturX: xml });

    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const read = await getDocument({ data: new Uint8Array(pdf) }).promise;
    const attachments = await read.getAttachments();
    expect([...(attachments?.keys() ?? [])]).toEqual(['factur-x.xml']);
    // pdf.js 6 may leave the content to be fetched.
    const content =
      attachments?.get('factur-x.xml')?.content ?? (await read.getAttachmentContent('factur-x.xml'));
    expect(Buffer.from(content ?? []).toString('utf8')).toBe(xml);

    const parsed = await PDFDocument.load(pdf, { updateMetadata: false });
    const catalog = parsed.catalog;
    const af = catalog.lookup(PDFName.of('AF'), PDFArray);
    expect(af.size()).toBe(1);
    const spec = af.lookup(0, PDFDict);
    expect(spec.get(PDFName.of('AFRelationship'))).toBe(PDFName.of('Alternative'));
    expect(
      spec
        .lookup(PDFName.of('EF'), PDFDict)
        .lookup(PDFName.of('F'), PDFStream)
        .dict.get(PDFName.of('Subtype')),
    ).toBe(PDFName.of('text/xml'));
    expect(catalog.lookup(PDFName.of('OutputIntents'), PDFArray).size()).toBe(1);
    const xmp = Buffer.from(catalog.lookup(PDFName.of('Metadata'), PDFStream).getContents()).toString('utf8');
    expect(xmp).toMatch(/<pdfaid:part>3<\/pdfaid:part>\s*<pdfaid:conformance>B<\/pdfaid:conformance>/);
    expect(xmp).toContain(
      '<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>',
    );
    expect(xmp).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>');
    expect(xmp).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
    // The XMP is well-formed XML even when the seller's name has markup characters.
    const parsedXmp = new XMLParser({ removeNSPrefix: true }).parse(xmp, true);
    expect(JSON.stringify(parsedXmp)).toContain('Müller & Söhne <Haustechnik> GmbH');
    expect(pdf.subarray(0, 8).toString()).toBe('%PDF-1.7');
  });

  it('without the XML stays a plain PDF with no attachment', async () => {
    const parsed = await PDFDocument.load(
      await salesDocumentPdf({ document: invoice('de', 1), seller: COMPANY, logo: null }),
    );
    expect(parsed.catalog.get(PDFName.of('AF'))).toBeUndefined();
  });
});
