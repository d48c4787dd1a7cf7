import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDocx, makeImageOnlyPdf, makePdf } from '../../../../test/support/documents.ts';
import { makeJapanesePdf, makeStandardFontPdf } from '../../../../test/support/handmade-pdf.ts';
import { chunkBlocks } from '../chunker.ts';
import { extractDocument } from './extract-document.ts';

const dir = mkdtempSync(join(tmpdir(), 'ww-extract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, content: Buffer | string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe('extracting documents', () => {
  it('reads PDF pages, headings by font size, and keeps umlauts', async () => {
    const pdf = await makePdf([
      { heading: 'Preisliste 2026', text: 'Heizkörper Typ 22 kostet 249 € – Größe 600 × 1000.' },
      { heading: 'Montage', text: 'Die Montage eines Heizkörpers dauert etwa zwei Stunden.' },
    ]);
    const { blocks, pageCount } = await extractDocument(write('a.pdf', pdf), 'pdf');
    expect(pageCount).toBe(2);
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Preisliste 2026', page: 1 },
      { kind: 'paragraph', text: 'Heizkörper Typ 22 kostet 249 € – Größe 600 × 1000.', page: 1 },
      { kind: 'heading', level: 1, text: 'Montage', page: 2 },
      { kind: 'paragraph', text: 'Die Montage eines Heizkörpers dauert etwa zwei Stunden.', page: 2 },
    ]);
    const chunks = chunkBlocks(blocks);
    expect(chunks.map((c) => [c.headingPath, c.page])).toEqual([
      [['Preisliste 2026'], 1],
      [['Montage'], 2],
    ]);
  });

  it('reads .docx headings, paragraphs and tables', async () => {
    const docx = await makeDocx([
      { heading: 'Wartung' },
      { text: 'Filter reinigen.' },
      {
        table: [
          ['Teil', 'Preis'],
          ['Filter', '19,90 €'],
        ],
      },
    ]);
    const { blocks } = await extractDocument(write('a.docx', docx), 'docx');
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Wartung' },
      { kind: 'paragraph', text: 'Filter reinigen.' },
      {
        kind: 'table',
        rows: [
          ['Teil', 'Preis'],
          ['Filter', '19,90 €'],
        ],
      },
    ]);
  });

  it.each([
    [
      'UTF-16LE with BOM',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Größe und Maß', 'utf16le')]),
    ],
    ['UTF-16LE without BOM', Buffer.from('Größe und Maß der Heizkörper', 'utf16le')],
    [
      'UTF-32BE with BOM',
      Buffer.concat([Buffer.from([0, 0, 0xfe, 0xff]), iconv.encode('Größe und Maß', 'utf32be')]),
    ],
    ['windows-1252', iconv.encode('Größe und Maß der Heizkörper für die Küche, übliche Maße', 'win1252')],
  ])('decodes text in %s', async (_name, bytes) => {
    const { blocks } = await extractDocument(write(`t-${Math.random()}.txt`, bytes), 'txt');
    expect(blocks[0]).toMatchObject({ text: expect.stringContaining('Größe und Maß') });
  });

  it.each([
    ['CP866', 'cp866', 'Накладная на поставку котлов и радиаторов для школы.'],
    ['KOI8-R', 'koi8-r', 'Накладная на поставку котлов и радиаторов для школы.'],
    ['Windows-1256', 'windows-1256', 'فاتورة توريد المشعات وتركيبها في المدرسة.'],
  ])('decodes a %s text file that chardet misreads', async (_name, encoding, text) => {
    const { blocks } = await extractDocument(
      write(`t-${Math.random()}.txt`, iconv.encode(text, encoding)),
      'txt',
    );
    expect(blocks).toEqual([{ kind: 'paragraph', text }]);
  });

  // The minimum of characters is for pages that needed OCR: a short text layer is text, not a scan.
  it.each([
    ['a standard-font PDF', () => makeStandardFontPdf([['Hello world!']]), 'Hello world!'],
    [
      'a Japanese CID-font PDF',
      () => makeJapanesePdf(['あいうえお 日本語'], 'horizontal'),
      'あいうえお 日本語',
    ],
  ])('reads %s with a one-line text layer shorter than a scan minimum', async (_name, make, text) => {
    const { blocks, ocr } = await extractDocument(write(`short-${Math.random()}.pdf`, make()), 'pdf');
    expect(blocks).toEqual([{ kind: 'paragraph', text, page: 1 }]);
    expect(ocr).toBeUndefined();
  });

  it.each([
    [
      'a password-protected PDF',
      () => makePdf([{ text: 'geheim' }], { userPassword: 'pw' }),
      'pdf',
      'FILE_PASSWORD_PROTECTED',
    ],
    ['a PDF without a text layer', () => makeImageOnlyPdf(), 'pdf', 'FILE_NO_TEXT'],
    [
      'a truncated PDF',
      async () => (await makePdf([{ text: 'abgeschnitten' }])).subarray(0, 300),
      'pdf',
      'FILE_CORRUPT',
    ],
    [
      'a truncated .docx',
      async () => (await makeDocx([{ text: 'abgeschnitten' }])).subarray(0, 2000),
      'docx',
      'FILE_CORRUPT',
    ],
    [
      'random bytes as .docx',
      async () => Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
      'docx',
      'FILE_CORRUPT',
    ],
    ['an empty text file', async () => Buffer.alloc(0), 'txt', 'FILE_EMPTY'],
    ['a text file of blanks', async () => Buffer.from('   \n\n  \t '), 'txt', 'FILE_EMPTY'],
  ] as const)('reports %s with its reason', async (_name, make, kind, code) => {
    const path = write(`bad-${Math.random()}`, await make());
    await expect(extractDocument(path, kind)).rejects.toMatchObject({ code });
  });
});
