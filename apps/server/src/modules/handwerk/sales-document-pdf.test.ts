import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { documentTotals, type SalesDocument } from '@werkwissen/shared';
import { describe, expect, it } from 'vitest';
import { COMPANY } from './handwerk-fixtures.ts';
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

function invoice(language: string, lineCount: number): SalesDocument {
  const lines = Array.from({ length: lineCount }, (_, i) => ({
    description: `Position ${i + 1}`,
    quantity: 1.5,
    unit: 'h',
    unitPriceCents: 6450,
    discountPercent: i === 0 ? 10 : 0,
    taxRate: i % 2 ? 7 : 19,
    source: null,
  }));
  const totals = documentTotals(lines);
  return {
    id: '00000000-0000-4000-8000-000000000001',
    type: 'invoice',
    status: 'sent',
    number: 'RE-2026-0042',
    customerId: '00000000-0000-4000-8000-000000000002',
    customerName: 'Familie Schneider',
    title: 'Heizungswartung',
    language: language as SalesDocument['language'],
    issueDate: '2026-03-02',
    dueDate: '2026-03-16',
    netCents: totals.netCents,
    grossCents: totals.grossCents,
    createdAt: '2026-03-02T08:00:00.000Z',
    notes: '',
    lines: lines.map((l, i) => ({ ...l, netCents: totals.lineNetCents[i]! })),
    taxGroups: totals.taxGroups,
    taxCents: totals.taxCents,
    buyer: {
      name: 'Familie Schneider',
      street: 'Lindenweg 4',
      postalCode: '14467',
      city: 'Potsdam',
      country: 'DE',
      email: '',
      vatId: '',
      buyerReference: '991-01234-44',
    },
    sourceDocumentId: null,
    sourceNumber: null,
    finalisedAt: '2026-03-02T08:00:00.000Z',
    sentAt: null,
  };
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

  it('marks a draft as not issued', async () => {
    const draft = { ...invoice('en', 1), number: null, status: 'draft' as const };
    const text = (
      await pagesOf(await salesDocumentPdf({ document: draft, seller: COMPANY, logo: null }))
    ).join(' ');
    expect(text).toContain('Draft – not issued');
  });
});
