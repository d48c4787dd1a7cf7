import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { makeToUnicodePdf } from '../../../../test/support/handmade-pdf.ts';
import { pdfToBlocks } from './pdf-blocks.ts';
import { GLYPH_STATEMENT, glyphInVisualOrder, withGlyphOrderFix } from './pdfjs.ts';

const texts = async (pdf: Buffer) => (await pdfToBlocks(pdf)).blocks.map((b) => ('text' in b ? b.text : ''));

describe("pdf.js's right-to-left glyphs of several characters", () => {
  it('reads a lam-alef ligature and a letter with its vowel mark in reading order', async () => {
    // "المشكلات من خلال" drawn from left to right: its glyphs in visual order, lam-alef one glyph each time.
    const line = ['ل', 'لا', 'خ', ' ', 'ن', 'م', ' ', 'ت', 'لا', 'ك', 'ش', 'م', 'ل', 'ا'];
    expect(await texts(makeToUnicodePdf([line]))).toEqual(['المشكلات من خلال']);
    // One glyph for beh with shadda (a letter and its mark), drawn left of alef: "اب" + shadda on beh reads "ابّ".
    expect(await texts(makeToUnicodePdf([['بّ', 'ا']]))).toEqual(['ابّ']);
  });

  it('leaves left-to-right ligatures, digits and single characters as they are', () => {
    expect(glyphInVisualOrder('fi')).toBe('fi');
    expect(glyphInVisualOrder('ﻻ')).toBe('ﻻ');
    expect(glyphInVisualOrder('١٢')).toBe('١٢');
    expect(glyphInVisualOrder('لا')).toBe('ال');
    expect(glyphInVisualOrder('שׁ')).toBe('ׁש');
  });

  it('applies to the installed pdf.js (another version needs the fix looked at again)', () => {
    const worker = readFileSync(
      createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'),
      'utf8',
    );
    expect(withGlyphOrderFix(worker)).not.toBeNull();
    expect(withGlyphOrderFix(`${GLYPH_STATEMENT}${GLYPH_STATEMENT}`)).toBeNull();
  });
});
