import { describe, expect, it } from 'vitest';
import { makeJapanesePdf, makeStandardFontPdf } from '../../../../test/support/handmade-pdf.ts';
import { pdfToBlocks } from './pdf-blocks.ts';
import { dropRunningLines, pageLines, type TextPiece } from './pdf-lines.ts';

const piece = (str: string, x: number, y: number, dir = 'ltr'): TextPiece => ({
  str,
  dir,
  hasEOL: false,
  transform: [12, 0, 0, 12, x, y],
});

describe('reading PDFs faithfully', () => {
  it('reads Japanese in vertical columns through the CMaps shipped with pdf.js, right column first', async () => {
    const pdf = makeJapanesePdf(['請求書の金額は三千円です', '支払期限は来月末日です']);
    const { blocks } = await pdfToBlocks(pdf);
    expect(blocks.map((b) => ('text' in b ? b.text : ''))).toEqual([
      '請求書の金額は三千円です 支払期限は来月末日です',
    ]);
  });

  it('reads a standard font without embedded data, unfolds ligatures and joins words hyphenated at line ends', async () => {
    const pdf = makeStandardFontPdf([
      ['Die Ober\x02\xe4che der Heizungs-', 'anlage ist zerti\x01ziert und gepr\xfcft.'],
    ]);
    const { blocks } = await pdfToBlocks(pdf);
    expect(blocks).toEqual([
      {
        kind: 'paragraph',
        text: 'Die Oberfläche der Heizungsanlage ist zertifiziert und geprüft.',
        page: 1,
      },
    ]);
  });

  it('drops headers and footers repeated on every page, keeping the body', async () => {
    const pdf = makeStandardFontPdf(
      [['Erste Seite des Angebots.'], ['Zweite Seite mit Preisen.'], ['Dritte Seite mit Bedingungen.']],
      { header: 'Muster Heizungsbau GmbH - vertraulich', footer: 'Seite {page} von 3' },
    );
    const { blocks } = await pdfToBlocks(pdf);
    expect(blocks.map((b) => ('text' in b ? [b.text, b.page] : []))).toEqual([
      ['Erste Seite des Angebots.', 1],
      ['Zweite Seite mit Preisen.', 2],
      ['Dritte Seite mit Bedingungen.', 3],
    ]);
  });

  it('orders a right-to-left line from its rightmost piece, and keeps a left-to-right line in stream order', () => {
    const lines = pageLines([
      piece('المشعات', 100, 700),
      piece('تركيب', 160, 700),
      piece('فاتورة', 220, 700),
      { ...piece('Preis 249 EUR', 72, 680), hasEOL: true },
    ]);
    expect(lines.map((l) => l.text)).toEqual(['فاتورة تركيب المشعات', 'Preis 249 EUR']);
  });

  it('keeps a line that recurs on fewer than most pages', () => {
    const page = (body: string, edge: string) => [
      { text: edge, size: 9, y: 800 },
      { text: body, size: 12, y: 700 },
    ];
    const pages = [
      page('eins', 'Kapitel 1'),
      page('zwei', 'Anhang'),
      page('drei', 'Kapitel 2'),
      page('vier', 'Index'),
    ];
    expect(dropRunningLines(pages).map((p) => p.map((l) => l.text))).toEqual([
      ['Kapitel 1', 'eins'],
      ['Anhang', 'zwei'],
      ['Kapitel 2', 'drei'],
      ['Index', 'vier'],
    ]);
  });
});
