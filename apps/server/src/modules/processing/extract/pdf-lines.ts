import { normalizeSpace } from './blocks.ts';

/** One line of a page (a column, in vertical writing) in reading order, with its font size and position. */
export interface Line {
  text: string;
  size: number;
  /** Where the line sits across the reading direction: y for horizontal lines, x for vertical columns. */
  y: number;
}

/** The part of a pdf.js text item the layout needs. */
export interface TextPiece {
  str: string;
  dir: string;
  hasEOL: boolean;
  transform: number[];
}

const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/gu;
const LETTER = /\p{L}/gu;
const count = (s: string, re: RegExp) => s.match(re)?.length ?? 0;

const sizeOf = (p: TextPiece) => Math.hypot(p.transform[0] ?? 0, p.transform[1] ?? 0);
const xOf = (p: TextPiece) => p.transform[4] ?? 0;
const yOf = (p: TextPiece) => p.transform[5] ?? 0;

/**
 * A page's text items as lines in reading order. Horizontal lines start where the baseline moves; a line that is
 * mostly right-to-left letters takes its pieces from right to left (PDFs place them in visual order). A page set
 * mostly in vertical writing is read in columns, from the right column to the left, each from top to bottom.
 */
export function pageLines(items: TextPiece[]): Line[] {
  let vertical = 0;
  let all = 0;
  for (const item of items) {
    const n = item.str.trim().length;
    all += n;
    if (item.dir === 'ttb') vertical += n;
  }
  return vertical * 2 > all ? verticalLines(items) : horizontalLines(items);
}

function horizontalLines(items: TextPiece[]): Line[] {
  const lines: Line[] = [];
  let pieces: TextPiece[] = [];
  let size = 0;
  let y = Number.NaN;
  const push = () => {
    const text = normalizeSpace(joinPieces(pieces));
    if (text) lines.push({ text, size, y });
    pieces = [];
    size = 0;
    y = Number.NaN;
  };
  for (const item of items) {
    const itemSize = sizeOf(item);
    const ty = yOf(item);
    if (!Number.isNaN(y) && Math.abs(ty - y) > Math.max(itemSize, size) * 0.5 && item.str.trim()) push();
    if (Number.isNaN(y) && item.str.trim()) y = ty;
    pieces.push(item);
    if (item.str.trim()) size = Math.max(size, itemSize);
    if (item.hasEOL) push();
  }
  push();
  return lines;
}

/** The pieces of one line as text: in their order, or from right to left when the line reads right to left. */
function joinPieces(pieces: TextPiece[]): string {
  const text = pieces.map((p) => p.str).join('');
  if (count(text, RTL_LETTER) * 2 <= count(text, LETTER)) return text;
  const words = pieces.filter((p) => p.str.trim()).sort((a, b) => xOf(b) - xOf(a));
  return words.map((p) => p.str.trim()).join(' ');
}

function verticalLines(items: TextPiece[]): Line[] {
  const columns: { x: number; size: number; pieces: TextPiece[] }[] = [];
  for (const item of items) {
    if (!item.str.trim()) continue;
    const size = sizeOf(item);
    const column = columns.find((c) => Math.abs(c.x - xOf(item)) < Math.max(c.size, size) * 0.5);
    if (column) {
      column.pieces.push(item);
      column.size = Math.max(column.size, size);
    } else columns.push({ x: xOf(item), size, pieces: [item] });
  }
  return columns
    .sort((a, b) => b.x - a.x)
    .map((c) => ({
      text: normalizeSpace(
        c.pieces
          .sort((a, b) => yOf(b) - yOf(a))
          .map((p) => p.str)
          .join(''),
      ),
      size: c.size,
      y: c.x,
    }))
    .filter((l) => l.text);
}

/** Text that marks a running header or footer: the same words on every page, whatever the page number. */
const runningKey = (text: string) => text.toLowerCase().replace(/\d+/g, '#');
const EDGE_LINES = 2;

/**
 * Drops running headers and footers: lines among the first or last two of a page whose text (numbers aside)
 * recurs at the edge of most pages. Documents of fewer than three pages keep everything.
 */
export function dropRunningLines(pages: Line[][]): Line[][] {
  if (pages.length < 3) return pages;
  const edges = (lines: Line[]) => [...lines.slice(0, EDGE_LINES), ...lines.slice(-EDGE_LINES)];
  const pagesWith = new Map<string, number>();
  for (const lines of pages)
    for (const key of new Set(edges(lines).map((l) => runningKey(l.text))))
      pagesWith.set(key, (pagesWith.get(key) ?? 0) + 1);
  const threshold = Math.max(3, Math.ceil(pages.length * 0.6));
  return pages.map((lines) =>
    lines.filter((line, i) => {
      const atEdge = i < EDGE_LINES || i >= lines.length - EDGE_LINES;
      return !(atEdge && (pagesWith.get(runningKey(line.text)) ?? 0) >= threshold);
    }),
  );
}
