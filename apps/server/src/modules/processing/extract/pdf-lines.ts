import { normalizeSpace } from './blocks.ts';

/** A run of a line's text set apart from the rest by a wide gap: a table cell, or the whole line. */
export interface Cell {
  text: string;
  x0: number;
  x1: number;
}

/** One line of a page (a column, in vertical writing) in reading order, with its font size and position. */
export interface Line {
  text: string;
  /** The font size that carries most of the line's characters (a larger bullet does not make a heading). */
  size: number;
  /** Where the line sits across the reading direction: y for horizontal lines, x for vertical columns. */
  y: number;
  /** A horizontal left-to-right line's cells (several when wide gaps split it, as in a table row); else absent. */
  cells?: Cell[];
  /** The line starts with a bullet or a list number ("•", "1."), set apart from its text. */
  item?: boolean;
}

/** The part of a pdf.js text item the layout needs. */
export interface TextPiece {
  str: string;
  dir: string;
  hasEOL: boolean;
  transform: number[];
  /** The piece's advance width (pdf.js gives it; estimated from the size when absent). */
  width?: number;
}

/** A gap between two pieces of a line wider than this many times the font size separates two cells. */
const CELL_GAP = 1.2;
/** A bullet or list number standing apart from the text it introduces. */
const LIST_MARKER = /^([•◦▪▫‣●○■□◆◇➢►–\-*·]|\d{1,2}[.)]|[a-z][.)])$/u;
/** A line starting with a bullet glyph is a list item however its pieces are cut. */
const BULLET_START = /^[•◦▪▫‣●○■□◆◇➢►·]\s/u;

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
    if (text) lines.push({ text, size: dominantSize(pieces), y, ...lineCells(pieces, text) });
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

/** The font size of most of the pieces' characters. */
function dominantSize(pieces: TextPiece[]): number {
  const chars = new Map<number, number>();
  for (const p of pieces) {
    const n = p.str.trim().length;
    if (n > 0) chars.set(sizeOf(p), (chars.get(sizeOf(p)) ?? 0) + n);
  }
  let best = 0;
  let most = -1;
  for (const [s, n] of chars) if (n > most || (n === most && s > best)) [best, most] = [s, n];
  return best;
}

const widthOf = (p: TextPiece) => p.width ?? p.str.length * sizeOf(p) * 0.5;

/**
 * A left-to-right line cut into cells at gaps wider than CELL_GAP times the font size (a blank piece that wide is
 * such a gap too, and so is a jump back to the left). A line starting with a bullet, or with a list number set
 * apart from its text ("1." and a gap wider than a space), is a list item; its marker stays with the first cell.
 */
function lineCells(pieces: TextPiece[], text: string): Pick<Line, 'cells' | 'item'> {
  if (count(text, RTL_LETTER) * 2 > count(text, LETTER)) return {};
  const cells: Cell[] = [];
  let current: Cell | null = null;
  for (const p of pieces) {
    const x0 = xOf(p);
    const x1 = x0 + widthOf(p);
    const wide = CELL_GAP * sizeOf(p);
    if (!p.str.trim()) {
      if (current && x1 - x0 > wide) current = null;
      else if (current) current.text += p.str;
      continue;
    }
    if (current && x0 - current.x1 <= wide && x0 >= current.x0) {
      current.text += p.str;
      current.x1 = Math.max(current.x1, x1);
    } else {
      current = { text: p.str, x0, x1 };
      cells.push(current);
    }
  }
  for (const cell of cells) cell.text = normalizeSpace(cell.text);
  const words = pieces.filter((p) => p.str.trim());
  const [first, second] = words;
  const item =
    BULLET_START.test(text) ||
    (first !== undefined &&
      second !== undefined &&
      LIST_MARKER.test(first.str.trim()) &&
      xOf(second) - (xOf(first) + widthOf(first)) >= 0.5 * sizeOf(second));
  if (item && cells.length >= 2 && LIST_MARKER.test(cells[0]!.text))
    cells.splice(0, 2, { text: `${cells[0]!.text} ${cells[1]!.text}`, x0: cells[0]!.x0, x1: cells[1]!.x1 });
  return { cells, ...(item ? { item } : {}) };
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
