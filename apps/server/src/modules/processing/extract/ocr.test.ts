import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeScannedPdf } from '../../../../test/support/handmade-pdf.ts';
import { makeScannedTextPdf } from '../../../../test/support/scans.ts';
import { OCR_NOT_INSTALLED } from './blocks.ts';
import { extractDocument } from './extract-document.ts';
import { DEFAULT_OCR_OPTIONS } from './ocr.ts';
import { packsFor, parseTsv, recogniseInScript } from './ocr-tesseract.ts';

const dir = mkdtempSync(join(tmpdir(), 'ww-ocr-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, content: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

/** A PNG that declares 30,000 x 30,000 pixels in its header: a decompression bomb if anything decoded it. */
function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.alloc(16)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const blankPage = {
  pixels: Buffer.from([0x78, 0x9c, 0xfb, 0x0f, 0x00, 0x01, 0x01, 0x01, 0x00]),
  width: 1,
  height: 1,
};

describe('reading scans by OCR', () => {
  it('reads a scanned PDF page in the company language, marks its page as OCR text and reports progress', async () => {
    const pdf = await makeScannedTextPdf([
      ['Lieferschein 4711', 'Die Heizkörper wurden am Montag geliefert und von der Bauleitung geprüft.'],
    ]);
    const progress: string[] = [];
    const result = await extractDocument(write('scan.pdf', pdf), 'pdf', {
      ocr: { ...DEFAULT_OCR_OPTIONS, languages: ['deu'] },
      onProgress: (done, total) => progress.push(`${done}/${total}`),
    });
    const text = result.blocks.map((b) => ('text' in b ? b.text : '')).join(' ');
    for (const word of ['Lieferschein', '4711', 'Heizkörper', 'geliefert', 'Bauleitung', 'geprüft']) {
      expect(text).toContain(word);
    }
    expect(result.blocks.every((b) => b.page === 1)).toBe(true);
    expect(result.ocr?.pages).toEqual([1]);
    expect(result.ocr?.meanConfidence).toBeGreaterThan(70);
    expect(progress).toEqual(['0/1', '1/1']);
  });

  it('ends a picture as FILE_NO_TEXT saying OCR is not installed when Tesseract is missing', async () => {
    const png = write('photo.png', pngDeclaring(800, 600));
    const missing = { ...DEFAULT_OCR_OPTIONS, tesseractPath: join(dir, 'no-such-tesseract') };
    await expect(extractDocument(png, 'png', { ocr: missing })).rejects.toMatchObject({
      code: 'FILE_NO_TEXT',
      message: OCR_NOT_INSTALLED,
    });
  });

  it('refuses a picture declaring 30,000 x 30,000 pixels before decoding it', async () => {
    const bomb = write('bomb.png', pngDeclaring(30_000, 30_000));
    // Were the picture handed to the (missing) OCR program, this would end FILE_NO_TEXT instead.
    const missing = { ...DEFAULT_OCR_OPTIONS, tesseractPath: join(dir, 'no-such-tesseract') };
    await expect(extractDocument(bomb, 'png', { ocr: missing })).rejects.toMatchObject({
      code: 'FILE_PARSE_LIMIT',
    });
  });

  it('refuses a scan of more pages than OCR may read', async () => {
    const pdf = write('long-scan.pdf', makeScannedPdf([blankPage, blankPage, blankPage]));
    await expect(
      extractDocument(pdf, 'pdf', { ocr: { ...DEFAULT_OCR_OPTIONS, maxPages: 2 } }),
    ).rejects.toMatchObject({ code: 'FILE_PARSE_LIMIT' });
  });

  it('turns Tesseract TSV into paragraphs with their page, joining words hyphenated at line ends', () => {
    const row = (page: number, par: number, line: number, word: number, conf: number, text: string) =>
      ['5', page, 1, par, line, word, 0, 0, 10, 10, conf, text].join('\t');
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      ['4', 1, 1, 1, 1, 0, 0, 0, 10, 10, -1, ''].join('\t'),
      row(1, 1, 1, 1, 96, 'Die'),
      row(1, 1, 1, 2, 90, 'Heizungs-'),
      row(1, 1, 2, 1, 88, 'anlage'),
      row(1, 2, 1, 1, 70, 'Ende.'),
      row(2, 1, 1, 1, 80, 'Seite'),
    ].join('\n');
    expect(parseTsv(tsv)).toEqual({
      blocks: [
        { kind: 'paragraph', text: 'Die Heizungsanlage', page: 1 },
        { kind: 'paragraph', text: 'Ende.', page: 1 },
        { kind: 'paragraph', text: 'Seite', page: 2 },
      ],
      confidences: [96, 90, 88, 70, 80],
    });
  });

  it('reads again in the company packs when the detected script reads without confidence', async () => {
    // A stand-in for Tesseract that misdetects a noisy English scan as Cyrillic, as real scans make it do.
    const fake = join(dir, 'fake-tesseract');
    writeFileSync(
      fake,
      [
        '#!/bin/sh',
        'case "$*" in',
        '  *"-l osd"*) echo "Script: Cyrillic"; exit 0 ;;',
        '  *"-l rus"*) conf=40; word="ЗЕАТТЕЕ" ;;',
        '  *) conf=91; word="SEATTLE" ;;',
        'esac',
        "printf 'level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext\\n'",
        'printf \'5\\t1\\t1\\t1\\t1\\t1\\t0\\t0\\t10\\t10\\t%s\\t%s\\n\' "$conf" "$word"',
      ].join('\n'),
    );
    chmodSync(fake, 0o755);
    const read = await recogniseInScript(fake, join(dir, 'scan.png'), ['eng'], 10_000);
    expect(read).toMatchObject({ packs: ['eng'], confidences: [91], blocks: [{ text: 'SEATTLE' }] });
  });

  it.each([
    ['Latin', ['rus', 'deu', 'eng'], ['deu', 'eng']],
    ['Latin', ['rus'], ['eng']],
    ['Cyrillic', ['deu', 'ukr'], ['ukr']],
    ['Cyrillic', ['deu'], ['rus']],
    ['Arabic', ['deu'], ['ara']],
    [null, ['deu', 'fra'], ['deu', 'fra']],
    [null, [], ['eng']],
  ])('reads %s script for a company of %j with %j', (script, company, packs) => {
    expect(packsFor(script, company)).toEqual(packs);
  });
});
