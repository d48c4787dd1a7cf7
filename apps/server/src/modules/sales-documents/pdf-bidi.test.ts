import { describe, expect, it } from 'vitest';
import { glyphOrderOf, leftToRight, visualRuns } from './pdf-bidi.ts';

/** The runs from left to right, as "text" (left to right) or "<text>" (right to left). */
const shown = (line: string) => visualRuns(line).map((r) => (r.rtl ? `<${r.text}>` : r.text));

describe('right-to-left lines', () => {
  it('keeps a document number and a percentage whole inside Arabic, Arabic words reading from the right', () => {
    expect(shown('فاتورة RE-2026-0042')).toEqual(['RE-2026-0042', '<فاتورة >']);
    // The old layout reversed every glyph of the line, and "19" came out as "91".
    expect(shown('ضريبة القيمة المضافة 19٪ على 183.83')).toEqual([
      '183.83',
      '<٪ على >',
      '19',
      '<ضريبة القيمة المضافة >',
    ]);
  });

  it('puts a sentence-final period at the left end, after a Latin code', () => {
    expect(shown('مع ذكر الرقم RE-2026-0042.')).toEqual(['<.>', 'RE-2026-0042', '<مع ذكر الرقم >']);
  });

  it('keeps an isolated code in its own order, where the algorithm alone splits it at its hyphens', () => {
    expect(shown('مرجعكم: 991-01234-44')).not.toContain('991-01234-44');
    expect(shown(`مرجعكم: ${leftToRight('991-01234-44')}`)).toEqual(['991-01234-44', '<مرجعكم: >']);
  });

  it('leaves Latin text alone and drops the invisible direction marks', () => {
    expect(shown('Müller Haustechnik GmbH')).toEqual(['Müller Haustechnik GmbH']);
    expect(shown('')).toEqual([]);
    expect(visualRuns('02\u200f/03\u200f/2026').every((r) => !/[\u200f]/.test(r.text))).toBe(true);
  });

  it('reverses a right-to-left run the font will not reverse itself: one with no Arabic letter', () => {
    expect(glyphOrderOf({ text: ' (1: ', rtl: true })).toBe(' :1) ');
    expect(glyphOrderOf({ text: 'سعر الوحدة', rtl: true })).toBe('سعر الوحدة');
    expect(glyphOrderOf({ text: 'RE-1', rtl: false })).toBe('RE-1');
  });
});
