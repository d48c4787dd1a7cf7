import { describe, expect, it } from 'vitest';
import { makeLayoutPdf, type PlacedText } from '../../../../test/support/documents.ts';
import { makeJapanesePdf, makeStandardFontPdf } from '../../../../test/support/handmade-pdf.ts';
import { chunkBlocks } from '../chunker.ts';
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

  it('reads a table as rows of cells, wrapped cells in their row, a section row on its own, and lists as items', async () => {
    const columns = [60, 110, 330, 430];
    const row = (y: number, cells: string[]): PlacedText[] =>
      cells.map((text, i) => ({
        text,
        x: columns[i]!,
        y,
        size: 9,
        width: (columns[i + 1] ?? 540) - columns[i]! - 12,
      }));
    const pdf = await makeLayoutPdf([
      [
        { text: 'Störungen beheben', x: 60, y: 60, size: 16 },
        {
          text: 'Die Anzeige blinkt bei jeder Störung. Die folgenden Codes zeigt das Display:',
          x: 60,
          y: 90,
          size: 10,
        },
        ...row(120, ['Code', 'Bedeutung', 'Ursache', 'Abhilfe']),
        ...row(138, [
          'E12',
          'Kein Zündfunke',
          'Elektrode verschmutzt oder der Abstand zum Brenner zu groß',
          'Elektrode reinigen',
        ]),
        ...row(190, [
          'E31',
          'Wassermangel',
          'Druck unter 0,8 bar',
          'Anlage auf 1,5 bar füllen und die Leitungen auf Undichtigkeiten prüfen',
        ]),
        { text: 'Wartung', x: 60, y: 250, size: 9 },
        ...row(266, ['W01', 'Wartung fällig', 'Betriebsstunden erreicht', 'Wartung ausführen']),
        { text: '§ 4 Verhalten bei Gasgeruch', x: 60, y: 300, size: 10.5 },
        { text: '1.', x: 60, y: 320, size: 10 },
        { text: 'Keine Schalter betätigen und keine Stecker ziehen.', x: 80, y: 320, size: 10 },
        { text: '2.', x: 60, y: 336, size: 10 },
        {
          text: 'Fenster öffnen, das Haus verlassen und von draußen den Notdienst rufen.',
          x: 80,
          y: 336,
          size: 10,
          width: 300,
        },
        { text: '•', x: 60, y: 380, size: 12 },
        { text: 'Die Elektro- und', x: 80, y: 380, size: 10 },
        { text: 'Gasarbeiten macht nur ein Fachbetrieb.', x: 80, y: 393, size: 10 },
      ],
    ]);
    const { blocks } = await pdfToBlocks(pdf);
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Störungen beheben', page: 1 },
      {
        kind: 'paragraph',
        text: 'Die Anzeige blinkt bei jeder Störung. Die folgenden Codes zeigt das Display:',
        page: 1,
      },
      {
        kind: 'table',
        rows: [
          ['Code', 'Bedeutung', 'Ursache', 'Abhilfe'],
          [
            'E12',
            'Kein Zündfunke',
            'Elektrode verschmutzt oder der Abstand zum Brenner zu groß',
            'Elektrode reinigen',
          ],
          [
            'E31',
            'Wassermangel',
            'Druck unter 0,8 bar',
            'Anlage auf 1,5 bar füllen und die Leitungen auf Undichtigkeiten prüfen',
          ],
          ['Wartung', '', '', ''],
          ['W01', 'Wartung fällig', 'Betriebsstunden erreicht', 'Wartung ausführen'],
        ],
        header: true,
        page: 1,
      },
      // Set a little larger than the text and on its own line: a heading, though not much larger.
      { kind: 'heading', level: 2, text: '§ 4 Verhalten bei Gasgeruch', page: 1 },
      { kind: 'listItem', text: '1. Keine Schalter betätigen und keine Stecker ziehen.', page: 1 },
      {
        kind: 'listItem',
        text: '2. Fenster öffnen, das Haus verlassen und von draußen den Notdienst rufen.',
        page: 1,
      },
      // A larger bullet does not make a heading; "Elektro- und" is a suspended compound, not a broken word.
      { kind: 'listItem', text: 'Die Elektro- und Gasarbeiten macht nur ein Fachbetrieb.', page: 1 },
    ]);
    expect(chunkBlocks(blocks).map((c) => c.text.split('\n'))).toEqual([
      [
        'Die Anzeige blinkt bei jeder Störung. Die folgenden Codes zeigt das Display:',
        'Code | Bedeutung | Ursache | Abhilfe',
        'E12 | Kein Zündfunke | Elektrode verschmutzt oder der Abstand zum Brenner zu groß | Elektrode reinigen',
        'E31 | Wassermangel | Druck unter 0,8 bar | Anlage auf 1,5 bar füllen und die Leitungen auf Undichtigkeiten prüfen',
        'Wartung',
        'W01 | Wartung fällig | Betriebsstunden erreicht | Wartung ausführen',
      ],
      [
        '1. Keine Schalter betätigen und keine Stecker ziehen.',
        '2. Fenster öffnen, das Haus verlassen und von draußen den Notdienst rufen.',
        '• Die Elektro- und Gasarbeiten macht nur ein Fachbetrieb.',
      ],
    ]);
  });
});
