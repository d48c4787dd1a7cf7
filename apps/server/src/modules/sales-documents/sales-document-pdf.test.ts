import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream } from '@cantoo/pdf-lib';
import { LANGUAGES, type Language } from '@werkwissen/shared';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { translate } from '../../i18n/translator.ts';
import { loadPdfjs } from '../processing/extract/pdfjs.ts';
import { ciiInvoiceXml } from './cii-invoice.ts';
import { COMPANY, issuedInvoice as invoice } from './sales-document-fixtures.ts';
import { salesDocumentPdf } from './sales-document-pdf.ts';

const pdfjsFolder = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** The text of each page, as pdf.js reads it. */
async function pagesOf(pdf: Buffer): Promise<string[]> {
  const { getDocument } = await loadPdfjs();
  const doc = await getDocument({
    data: new Uint8Array(pdf),
    standardFontDataUrl: `${join(pdfjsFolder, 'standard_fonts')}/`,
  }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    // No-break spaces (in amounts, and binding a footer label to its value) read as spaces.
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replaceAll('\u00a0', ' '),
    );
  }
  return pages;
}

interface Box {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The first page's text items with their boxes, and the boxes of the images drawn on it (PDF user space). */
async function layoutOf(pdf: Buffer): Promise<{ items: Box[]; images: Box[] }> {
  const { getDocument, OPS } = await loadPdfjs();
  const page = await (await getDocument({ data: new Uint8Array(pdf) }).promise).getPage(1);
  const items = (await page.getTextContent()).items.flatMap((item) =>
    'str' in item && item.str.trim()
      ? [
          {
            text: item.str,
            x: item.transform[4] as number,
            y: item.transform[5] as number,
            width: item.width,
            height: item.height,
          },
        ]
      : [],
  );
  // Follow the current transformation matrix to where each image's unit square lands.
  const operators = await page.getOperatorList();
  type Matrix = [number, number, number, number, number, number];
  const times = (m: Matrix, n: Matrix): Matrix => [
    n[0] * m[0] + n[1] * m[2],
    n[0] * m[1] + n[1] * m[3],
    n[2] * m[0] + n[3] * m[2],
    n[2] * m[1] + n[3] * m[3],
    n[4] * m[0] + n[5] * m[2] + m[4],
    n[4] * m[1] + n[5] * m[3] + m[5],
  ];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  const images: Box[] = [];
  operators.fnArray.forEach((fn, i) => {
    const args = operators.argsArray[i];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = times(ctm, args as Matrix);
    else if (fn === OPS.paintImageXObject) {
      const xs = [ctm[4], ctm[4] + ctm[0] + ctm[2]];
      const ys = [ctm[5], ctm[5] + ctm[1] + ctm[3]];
      images.push({
        text: 'image',
        x: Math.min(...xs),
        y: Math.min(...ys),
        width: Math.abs(xs[1]! - xs[0]!),
        height: Math.abs(ys[1]! - ys[0]!),
      });
    }
  });
  return { items, images };
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A 200 × 100 PNG, as a company's logo is stored. */
async function logoPng(): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp({ create: { width: 200, height: 100, channels: 3, background: '#ff7526' } })
    .png()
    .toBuffer();
}

describe('the document PDF layout', () => {
  it('keeps the logo clear of every text, left to right and right to left', async () => {
    const seller = {
      ...COMPANY,
      street: 'Sehr lange Industriestraße 123 / Gewerbehof Hinterhaus',
      city: 'Stuttgart',
    };
    for (const language of ['de', 'ar'] as const) {
      const { items, images } = await layoutOf(
        await salesDocumentPdf({ document: invoice(language, 2), seller, logo: await logoPng() }),
      );
      expect(images, language).toHaveLength(1);
      const covered = items.filter((item) => overlaps(item, images[0]!)).map((item) => item.text);
      expect(covered, language).toEqual([]);
    }
  });

  it('writes a German postcode before its town in an Arabic document, as the address is written', async () => {
    const document = invoice('ar', 1);
    document.buyer = { ...document.buyer, postalCode: '70182', city: 'Stuttgart' };
    const { items } = await layoutOf(await salesDocumentPdf({ document, seller: COMPANY, logo: null }));
    // Where a text starts on the page (pdf.js joins neighbouring runs into one item).
    const x = (text: string) => {
      const item = items.find((i) => i.text.includes(text))!;
      return item.x + (item.width * item.text.indexOf(text)) / item.text.length;
    };
    expect(x('70182')).toBeLessThan(x('Stuttgart'));
  });

  it('keeps each footer label on the line of its value, in every language', async () => {
    for (const language of LANGUAGES) {
      const { items } = await layoutOf(
        await salesDocumentPdf({ document: invoice(language, 1), seller: COMPANY, logo: null }),
      );
      const label = translate(language, 'documents.taxNumber');
      const labelItem = items.find((item) => item.text.includes(label));
      const valueItem = items.find((item) => item.text.includes('27/123/45678'));
      expect(labelItem && valueItem && Math.abs(labelItem.y - valueItem.y) < 1, language).toBe(true);
    }
  });

  it('fits every column heading on one line, in every language', async () => {
    const keys = ['position', 'description', 'quantity', 'unitPrice', 'discount', 'amount'];
    for (const language of LANGUAGES) {
      const { items } = await layoutOf(
        await salesDocumentPdf({ document: invoice(language as Language, 1), seller: COMPANY, logo: null }),
      );
      const headings = keys.map((key) => translate(language, `documents.${key}`));
      const found = headings.map((heading) => items.find((item) => item.text === heading));
      expect(
        headings.filter((_, i) => !found[i]),
        language,
      ).toEqual([]);
      expect(new Set(found.map((item) => Math.round(item!.y))).size, language).toBe(1);
    }
  });
});

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
    expect(last).toContain('Bitte überweisen Sie');
    expect(last).toContain('bis zum 16.03.2026 unter Angabe von RE-2026-0042.');
  });

  it('states what § 14 UStG asks: the service date or period, and a private customer’s duty to keep the invoice', async () => {
    const text = (document: ReturnType<typeof invoice>) =>
      salesDocumentPdf({ document, seller: COMPANY, logo: null })
        .then(pagesOf)
        .then((p) => p.join(' '));
    const single = await text(invoice('de', 1));
    expect(single).toContain('Leistungsdatum: 27.02.2026');
    expect(single).toContain('zwei Jahre lang aufzubewahren (§ 14b Abs. 1 Satz 5 UStG)');
    const period = await text({ ...invoice('de', 1), serviceEndDate: '2026-03-01' });
    expect(period).toContain('Leistungszeitraum: 27.02.2026 – 01.03.2026');
    const business = invoice('de', 1);
    business.buyer = { ...business.buyer, kind: 'business' };
    expect(await text(business)).not.toContain('aufzubewahren');
    expect(await text({ ...invoice('de', 1), propertyService: false })).not.toContain('aufzubewahren');
  });

  it('says why no VAT is charged (§ 13b, § 19) and shows no tax line then', async () => {
    const zero = (treatment: 'reverseCharge' | 'smallBusiness') => {
      const d = invoice('de', 1);
      const lines = d.lines.map((l) => ({ ...l, taxRate: 0 }));
      const net = lines.reduce((sum, l) => sum + l.netCents, 0);
      return {
        ...d,
        taxTreatment: treatment,
        lines,
        taxGroups: [{ taxRate: 0, netCents: net, taxCents: 0 }],
        taxCents: 0,
        grossCents: net,
        amountDueCents: net,
      };
    };
    const reverse = (
      await pagesOf(await salesDocumentPdf({ document: zero('reverseCharge'), seller: COMPANY, logo: null }))
    ).join(' ');
    expect(reverse).toContain('Steuerschuldnerschaft des Leistungsempfängers (§ 13b UStG)');
    expect(reverse).not.toContain('USt. 0 %');
    const small = (
      await pagesOf(await salesDocumentPdf({ document: zero('smallBusiness'), seller: COMPANY, logo: null }))
    ).join(' ');
    expect(small).toContain('Gemäß § 19 UStG wird keine Umsatzsteuer berechnet');
  });

  it('offers a cash discount, and deducts a final invoice’s down payments with their VAT', async () => {
    const d = invoice('de', 1);
    const withDiscount = {
      ...d,
      invoiceKind: 'final' as const,
      cashDiscount: { percent: 2, days: 10 },
      deductions: [
        {
          documentId: '00000000-0000-4000-8000-000000000009',
          number: 'RE-2026-0040',
          issueDate: '2026-02-02',
          taxGroups: [{ taxRate: 19, netCents: 5000, taxCents: 950 }],
          netCents: 5000,
          taxCents: 950,
          grossCents: 5950,
        },
      ],
      prepaidCents: 5950,
      amountDueCents: d.grossCents - 5950,
    };
    const text = (
      await pagesOf(await salesDocumentPdf({ document: withDiscount, seller: COMPANY, logo: null }))
    ).join(' ');
    expect(text).toContain('Schlussrechnung RE-2026-0042');
    expect(text).toContain('Abschlagsrechnung RE-2026-0040 vom 02.02.2026 (netto 50,00 €, USt. 9,50 €)');
    expect(text).toContain('-59,50 €');
    const due = d.grossCents - 5950;
    const euros = (cents: number) =>
      new Intl.NumberFormat('de', { style: 'currency', currency: 'EUR' })
        .format(cents / 100)
        .replaceAll('\u00a0', ' ');
    expect(text.replace(/\s+/g, ' ')).toContain(`Zu zahlender Betrag ${euros(due)}`);
    expect(text).toContain(
      `Bei Zahlung bis zum 12.03.2026 ziehen Sie 2 % Skonto ab und überweisen ${euros(due - Math.round(due * 0.02))}.`,
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
    const { getDocument } = await loadPdfjs();
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

    const { getDocument } = await loadPdfjs();
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
