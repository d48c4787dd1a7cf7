import bidiFactory from 'bidi-js';

const bidi = bidiFactory();

/** The invisible marks that steer the algorithm (Intl writes some into Arabic dates); they have no glyph to set. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** One piece of a line in visual order: its text in logical order, and whether it reads right to left. */
export interface VisualRun {
  text: string;
  rtl: boolean;
}

/**
 * One line of a right-to-left paragraph as the Unicode Bidirectional Algorithm (UAX #9, `bidi-js`) orders it: the runs
 * from left to right, each of one direction. Numbers, IBANs and Latin names stay left to right inside Arabic text
 * ("فاتورة RE-2026-0042", "19٪"), and the Arabic words read from the right.
 */
export function visualRuns(line: string): VisualRun[] {
  if (!line) return [];
  const embedding = bidi.getEmbeddingLevels(line, 'rtl');
  const order = Array.from(line, (_, i) => i);
  // Code units, not code points: a surrogate pair keeps its level on both halves and is never split into two runs.
  for (const segment of bidi.getReorderSegments(line, embedding)) {
    const [start, end] = segment as [number, number];
    order.splice(start, end - start + 1, ...order.slice(start, end + 1).reverse());
  }
  const runs: { indices: number[]; rtl: boolean }[] = [];
  for (const i of order) {
    const rtl = embedding.levels[i]! % 2 === 1;
    const last = runs.at(-1);
    if (last && last.rtl === rtl && Math.abs(last.indices.at(-1)! - i) === 1) last.indices.push(i);
    else runs.push({ indices: [i], rtl });
  }
  return runs
    .map(({ indices, rtl }) => ({
      text: line.slice(Math.min(...indices), Math.max(...indices) + 1).replace(BIDI_CONTROLS, ''),
      rtl,
    }))
    .filter((run) => run.text);
}

/** A code, number or name that reads left to right as a whole wherever it stands (LRI … PDI), e.g. "991-01234-44". */
export function leftToRight(value: string): string {
  return `\u2066${value}\u2069`;
}

/** Characters that fontkit lays out right to left by itself: a run holding one of them is reversed by the font. */
const RIGHT_TO_LEFT_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;

/**
 * The text to hand the font for a run. fontkit reverses a run whose script is right-to-left; a right-to-left run
 * without such a letter (spaces, a colon, a percent sign between Arabic words) it would leave as it is, so that one is
 * reversed here, with brackets mirrored.
 */
export function glyphOrderOf(run: VisualRun): string {
  if (!run.rtl || RIGHT_TO_LEFT_SCRIPT.test(run.text)) return run.text;
  return Array.from(run.text)
    .reverse()
    .map((c) => bidi.getMirroredCharacter(c) ?? c)
    .join('');
}

/** Where a text goes: by default at the document's cursor, as wide as the page allows. */
export interface TextPlace {
  x?: number;
  y?: number;
  width?: number;
  align: 'left' | 'right';
}

/** The lines a text takes at a width: its own line breaks, then words as long as they fit (a longer word alone). */
function wrap(doc: PDFKit.PDFDocument, text: string, width: number): string[] {
  return text.split('\n').flatMap((paragraph) => {
    const lines: string[] = [];
    let line = '';
    for (const word of paragraph.split(' ')) {
      const longer = line ? `${line} ${word}` : word;
      if (line && doc.widthOfString(longer) > width) {
        lines.push(line);
        line = word;
      } else line = longer;
    }
    return [...lines, line];
  });
}

/**
 * Writes and measures text for a document in `rtl` or left-to-right direction. Left to right is PDFKit's own layout.
 * Right to left wraps the words in logical order, orders each line with `visualRuns`, and sets the runs side by side
 * from the left (fontkit shapes the Arabic of each run and reverses it; `features: []` keeps a run whole).
 */
export function textWriter(doc: PDFKit.PDFDocument, rtl: boolean) {
  const placed = (place: TextPlace) => {
    const x = place.x ?? doc.x;
    return { x, y: place.y ?? doc.y, width: place.width ?? doc.page.width - doc.page.margins.right - x };
  };
  return {
    write(text: string, place: TextPlace): void {
      const { x, y, width } = placed(place);
      if (!rtl) {
        doc.text(text, x, y, { width, align: place.align });
        return;
      }
      let top = y;
      for (const line of wrap(doc, text, width)) {
        const runs = visualRuns(line).map((run) => ({
          text: glyphOrderOf(run),
          width: doc.widthOfString(run.text, { features: [] }),
        }));
        const lineWidth = runs.reduce((sum, run) => sum + run.width, 0);
        let left = place.align === 'right' ? x + width - lineWidth : x;
        for (const run of runs) {
          doc.text(run.text, left, top, { lineBreak: false, features: [] });
          left += run.width;
        }
        top += doc.currentLineHeight(true);
      }
      doc.x = x;
      doc.y = top;
    },
    heightOf(text: string, width: number): number {
      return rtl
        ? wrap(doc, text, width).length * doc.currentLineHeight(true)
        : doc.heightOfString(text, { width });
    },
  };
}
