import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileKind } from '@werkwissen/shared';
import { strToU8, zipSync } from 'fflate';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDocx } from '../../../../test/support/documents.ts';
import { makeEml, makeOdf, makePptx, makeXlsx, odfTable } from '../../../../test/support/office-documents.ts';
import { chunkBlocks } from '../chunker.ts';
import { extractDocument } from './extract-document.ts';
import { MAX_SHEET_CELLS } from './sheet-table.ts';
import { sniffFileKind } from './sniff-type.ts';
import { ZIP_LIMITS } from './zip-entries.ts';

const dir = mkdtempSync(join(tmpdir(), 'ww-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the file, sniffs its kind from the content and extracts it, as upload and processing do. */
async function read(name: string, content: Buffer | string, expectedKind: FileKind) {
  const path = join(dir, name);
  writeFileSync(path, content);
  expect((await sniffFileKind(path, name)).kind).toBe(expectedKind);
  return extractDocument(path, expectedKind);
}

async function failure(name: string, content: Buffer | string, kind: FileKind) {
  return read(name, content, kind).then(
    () => 'read',
    (error: { code?: string }) => error.code,
  );
}

describe('more formats', () => {
  it('reads a .pptx slide by slide in show order, with titles, tables and speaker notes, without slide numbers', async () => {
    const pptx = makePptx([
      {
        title: 'Wartung',
        texts: ['Filter alle sechs Monate reinigen.'],
        notes: 'Kunden an den Termin erinnern.',
      },
      {
        title: 'Preise',
        texts: [],
        table: [
          ['Teil', 'Preis'],
          ['Filter', '19,90 €'],
        ],
      },
    ]);
    const { blocks, pageCount } = await read('vortrag.pptx', pptx, 'pptx');
    expect(pageCount).toBe(2);
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Wartung', page: 1 },
      { kind: 'paragraph', text: 'Filter alle sechs Monate reinigen.', page: 1 },
      { kind: 'paragraph', text: 'Kunden an den Termin erinnern.', page: 1 },
      { kind: 'heading', level: 1, text: 'Preise', page: 2 },
      {
        kind: 'table',
        rows: [
          ['Teil', 'Preis'],
          ['Filter', '19,90 €'],
        ],
        page: 2,
      },
    ]);
    expect(chunkBlocks(blocks).map((c) => [c.headingPath, c.page])).toEqual([
      [['Wartung'], 1],
      [['Preise'], 2],
    ]);
  });

  it('reads each sheet of an .xlsx as a table under its name, one page per sheet, header row first, numbers as a German reader sees them', async () => {
    const xlsx = await makeXlsx({
      Preise: [
        ['Teil', 'Preis'],
        ['Filter', 19.9],
      ],
      Termine: [
        ['Kunde', 'Datum'],
        ['Berg', 'Montag'],
      ],
    });
    const { blocks, pageCount } = await read('liste.xlsx', xlsx, 'xlsx');
    expect(pageCount).toBe(2);
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Preise', page: 1 },
      {
        kind: 'table',
        rows: [
          ['Teil', 'Preis'],
          ['Filter', '19,9'],
        ],
        page: 1,
        header: true,
      },
      { kind: 'heading', level: 1, text: 'Termine', page: 2 },
      {
        kind: 'table',
        rows: [
          ['Kunde', 'Datum'],
          ['Berg', 'Montag'],
        ],
        page: 2,
        header: true,
      },
    ]);
  });

  it('shows an .xlsx price list as its readers see it: number formats in its language, title rows as caption, notes after', async () => {
    const price = (value: number) => ({ value, numFmt: '#,##0.00' });
    const german = await makeXlsx({
      Heizung: [
        ['Müller Haustechnik – Materialpreise 2026'],
        ['Alle Preise in Euro netto zuzüglich Mehrwertsteuer, Irrtümer vorbehalten'],
        [],
        ['Art.-Nr.', 'Bezeichnung', 'Einheit', 'Preis netto EUR'],
        ['K-10', 'Kugelhahn mit Flügelgriff für die Heizung', 'Stk', price(21.5)],
        ['K-11', 'Wärmepumpe für das Einfamilienhaus', 'Stk', price(12890)],
        ['Lieferung nur in ganzen Verpackungseinheiten.'],
      ],
    });
    const { blocks } = await read('preise.xlsx', german, 'xlsx');
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Heizung', page: 1 },
      {
        kind: 'table',
        caption:
          'Müller Haustechnik – Materialpreise 2026\nAlle Preise in Euro netto zuzüglich Mehrwertsteuer, Irrtümer vorbehalten',
        rows: [
          ['Art.-Nr.', 'Bezeichnung', 'Einheit', 'Preis netto EUR'],
          ['K-10', 'Kugelhahn mit Flügelgriff für die Heizung', 'Stk', '21,50'],
          ['K-11', 'Wärmepumpe für das Einfamilienhaus', 'Stk', '12.890,00'],
        ],
        page: 1,
        header: true,
      },
      { kind: 'paragraph', text: 'Lieferung nur in ganzen Verpackungseinheiten.', page: 1 },
    ]);
    // Every passage of the sheet carries the caption and the column names with the row.
    expect(chunkBlocks(blocks)[0]!.text.split('\n')).toEqual([
      'Müller Haustechnik – Materialpreise 2026',
      'Alle Preise in Euro netto zuzüglich Mehrwertsteuer, Irrtümer vorbehalten',
      'Art.-Nr. | Bezeichnung | Einheit | Preis netto EUR',
      'K-10 | Kugelhahn mit Flügelgriff für die Heizung | Stk | 21,50',
      'K-11 | Wärmepumpe für das Einfamilienhaus | Stk | 12.890,00',
      'Lieferung nur in ganzen Verpackungseinheiten.',
    ]);
    // The same format in an English workbook reads the English way.
    const english = await makeXlsx({
      Prices: [
        ['Item', 'Description', 'Net price'],
        ['K-10', 'Ball valve with a butterfly handle for heating systems', price(21.5)],
        ['K-11', 'Heat pump for a detached family house', price(12890)],
      ],
    });
    const table = (await read('prices.xlsx', english, 'xlsx')).blocks[1];
    expect(table).toMatchObject({
      rows: [expect.anything(), expect.arrayContaining(['21.50']), expect.arrayContaining(['12,890.00'])],
    });
  });

  it('reads an .ods with repeated cells unfolded and the trailing empty rows of a real sheet left out', async () => {
    const ods = makeOdf(
      'ods',
      `<office:spreadsheet><table:table table:name="Lager">
        <table:table-row><table:table-cell><text:p>Teil</text:p></table:table-cell><table:table-cell><text:p>Ort</text:p></table:table-cell></table:table-row>
        <table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="2"><text:p>Regal</text:p></table:table-cell><table:table-cell table:number-columns-repeated="16380"/></table:table-row>
        <table:table-row table:number-rows-repeated="1048573"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>
      </table:table></office:spreadsheet>`,
    );
    const { blocks, pageCount } = await read('lager.ods', ods, 'ods');
    expect(pageCount).toBe(1);
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Lager', page: 1 },
      {
        kind: 'table',
        rows: [
          ['Teil', 'Ort'],
          ['Regal', 'Regal'],
          ['Regal', 'Regal'],
        ],
        page: 1,
        header: true,
      },
    ]);
  });

  it('reads an .odt with outline headings, counted spaces, lists and tables, without comments', async () => {
    const odt = makeOdf(
      'odt',
      `<office:text><text:h text:outline-level="2">Wartung</text:h>
       <text:p>Filter<text:s text:c="3"/>reinigen.<office:annotation><text:p>Kommentar</text:p></office:annotation></text:p>
       <text:list><text:list-item><text:p>Ventil prüfen</text:p></text:list-item></text:list>${odfTable([['Teil', 'Preis']])}</office:text>`,
    );
    const { blocks } = await read('wartung.odt', odt, 'odt');
    expect(blocks).toEqual([
      { kind: 'heading', level: 2, text: 'Wartung' },
      { kind: 'paragraph', text: 'Filter reinigen.' },
      { kind: 'listItem', text: 'Ventil prüfen' },
      { kind: 'table', rows: [['Teil', 'Preis']] },
    ]);
  });

  it('reads an .odp slide by slide with titles and notes, without page numbers', async () => {
    const frame = (cls: string, text: string) =>
      `<draw:frame presentation:class="${cls}"><draw:text-box><text:p>${text}</text:p></draw:text-box></draw:frame>`;
    const odp = makeOdf(
      'odp',
      `<office:presentation>
        <draw:page>${frame('title', 'Einleitung')}${frame('outline', 'Wer wir sind')}${frame('page-number', '1')}</draw:page>
        <draw:page>${frame('title', 'Angebot')}${frame('outline', 'Was wir bieten')}<presentation:notes>${frame('notes', 'Preise nennen')}</presentation:notes></draw:page>
      </office:presentation>`,
    );
    const { blocks, pageCount } = await read('folien.odp', odp, 'odp');
    expect(pageCount).toBe(2);
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Einleitung', page: 1 },
      { kind: 'paragraph', text: 'Wer wir sind', page: 1 },
      { kind: 'heading', level: 1, text: 'Angebot', page: 2 },
      { kind: 'paragraph', text: 'Was wir bieten', page: 2 },
      { kind: 'paragraph', text: 'Preise nennen', page: 2 },
    ]);
  });

  it('reads .rtf in its code pages with Unicode escapes, outline headings and tables', async () => {
    const rtf = Buffer.concat([
      Buffer.from(
        '{\\rtf1\\ansi\\ansicpg1252\\uc1{\\fonttbl{\\f0\\fcharset0 Arial;}{\\f1\\fcharset204 Times;}}{\\info{\\title Intern}}' +
          "\\pard\\outlinelevel0 Preisliste\\par\\pard Preis 5 \\u8364\\'80 netto, Gr\\'f6\\'dfe 3\\par{\\f1 ",
        'latin1',
      ),
      Buffer.from(
        [...iconv.encode('Привет', 'cp1251')].map((b) => `\\'${b.toString(16)}`).join(''),
        'latin1',
      ),
      Buffer.from(
        '}\\par\\trowd\\cellx1000\\cellx2000\\pard\\intbl Teil\\cell Preis\\cell\\row\\trowd\\pard\\intbl Filter\\cell 19\\cell\\row\\pard Ende\\par}',
        'latin1',
      ),
    ]);
    expect(await read('preise.rtf', rtf, 'rtf')).toEqual({
      pageCount: null,
      blocks: [
        { kind: 'heading', level: 1, text: 'Preisliste' },
        { kind: 'paragraph', text: 'Preis 5 € netto, Größe 3' },
        { kind: 'paragraph', text: 'Привет' },
        {
          kind: 'table',
          rows: [
            ['Teil', 'Preis'],
            ['Filter', '19'],
          ],
        },
        { kind: 'paragraph', text: 'Ende' },
      ],
    });
  });

  it('reads an .eml: subject, sender, body, and attachments in formats we read (a mail in a mail too)', async () => {
    const inner = await makeEml({
      subject: 'Weitergeleitet',
      text: 'Die Pumpe läuft wieder.',
      attachments: [{ filename: 'bericht.docx', content: await makeDocx([{ text: 'Druck 2 bar.' }]) }],
    });
    const eml = await makeEml({
      subject: 'Angebot Wärmepumpe',
      html: '<h1>Angebot</h1><p>Anbei die Preise.</p>',
      attachments: [
        {
          filename: 'preise.xlsx',
          content: await makeXlsx({
            Preise: [
              ['Teil', 'Preis'],
              ['Pumpe', 300],
            ],
          }),
        },
        { filename: 'bild.png', content: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') },
        { filename: 'weiter.eml', content: inner },
      ],
    });
    const { blocks } = await read('angebot.eml', eml, 'eml');
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Angebot Wärmepumpe' },
      { kind: 'paragraph', text: 'From: "Meister Berg" <berg@handwerk.example>' },
      { kind: 'paragraph', text: 'To: buero@handwerk.example' },
      { kind: 'paragraph', text: 'Date: 2026-03-02T08:00:00.000Z' },
      { kind: 'heading', level: 2, text: 'Angebot' },
      { kind: 'paragraph', text: 'Anbei die Preise.' },
      { kind: 'heading', level: 2, text: 'preise.xlsx' },
      { kind: 'heading', level: 3, text: 'Preise' },
      {
        kind: 'table',
        rows: [
          ['Teil', 'Preis'],
          ['Pumpe', '300'],
        ],
        header: true,
      },
      { kind: 'heading', level: 2, text: 'weiter.eml' },
      { kind: 'heading', level: 3, text: 'Weitergeleitet' },
      { kind: 'paragraph', text: 'From: "Meister Berg" <berg@handwerk.example>' },
      { kind: 'paragraph', text: 'To: buero@handwerk.example' },
      { kind: 'paragraph', text: 'Date: 2026-03-02T08:00:00.000Z' },
      { kind: 'paragraph', text: 'Die Pumpe läuft wieder.' },
      { kind: 'heading', level: 4, text: 'bericht.docx' },
      { kind: 'paragraph', text: 'Druck 2 bar.' },
    ]);
  });

  it('tells formats by their content, not their name', async () => {
    const sniff = (name: string, content: Buffer | string) => {
      const path = join(dir, `sniff-${name}`);
      writeFileSync(path, content);
      return sniffFileKind(path, name).then((s) => s.kind);
    };
    // A presentation named .xlsx is a presentation; an ODF text named .ods is a text.
    expect(await sniff('a.xlsx', makePptx([{ title: 'T', texts: ['x'] }]))).toBe('pptx');
    expect(await sniff('a.ods', makeOdf('odt', '<office:text/>'))).toBe('odt');
    expect(await sniff('mail', await makeEml({ subject: 'Hallo', text: 'Text' }))).toBe('eml');
    expect(await sniff('notiz.eml', 'Nur ein Satz ohne Kopfzeilen.')).toBe(null);
    expect(await sniff('a.pptx', 'Nur Text.')).toBe(null);
    expect(await sniff('a.rtf', 'Nur Text.')).toBe(null);
  });

  it('stops archives over the limits and oversized sheets with FILE_PARSE_LIMIT', async () => {
    const entries = Object.fromEntries(
      Array.from({ length: ZIP_LIMITS.maxEntries + 1 }, (_, i) => [`ppt/x${i}.xml`, strToU8('<a/>')]),
    );
    expect(await failure('viele.pptx', makePptx([{ title: 'T', texts: ['x'] }], entries), 'pptx')).toBe(
      'FILE_PARSE_LIMIT',
    );
    const rows = MAX_SHEET_CELLS + 1;
    const ods = makeOdf(
      'ods',
      `<office:spreadsheet><table:table table:name="Riesig"><table:table-row table:number-rows-repeated="${rows}"><table:table-cell><text:p>x</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet>`,
    );
    expect(await failure('riesig.ods', ods, 'ods')).toBe('FILE_PARSE_LIMIT');
    // A zip that is not an archive we can read, and a mail that ends mid-header, stay readable or fail cleanly.
    expect(await failure('kaputt.odt', Buffer.from(zipSync({ mimetype: strToU8('x') })), 'odt')).not.toBe(
      'read',
    );
  });
});
