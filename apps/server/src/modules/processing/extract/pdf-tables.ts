import type { Cell, Line } from './pdf-lines.ts';

/** A table found among a page's lines: lines `start` to `end` (inclusive) become these rows. */
export interface PdfTable {
  start: number;
  end: number;
  rows: string[][];
  /** Whether the first row names the columns (it holds no figures). */
  header: boolean;
}

/**
 * Lines further apart than this many font sizes do not belong to one table; back up (pdf.js gives a row's wrapped
 * cells column by column, so the next column starts again at the row's top) a tall cell's height is allowed.
 */
const ROW_REACH = 4;
const BACK_REACH = 16;
/** A row continues (a wrapped cell) on a line at most this many font sizes below the one before. */
const WRAP_REACH = 1.6;
/** Cells of two columns of running text, not a table, are longer than this on average. */
const PROSE_CELL = 40;
const ALIGN = 3;

interface Column {
  x0: number;
  x1: number;
}

const overlap = (a: Column, b: Column) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
const isFigure = (text: string) =>
  /\d/.test(text) && /^[^\p{L}]*$/u.test(text.replace(/[a-zA-Z%€°]{1,3}$/u, ''));

/**
 * The tables of a page: runs of lines cut into several cells (see `lineCells`) whose cells line up in columns, with
 * the single-cell lines among them (a wrapped cell, a section row such as "Lohn und Fahrtkosten"). The rows are
 * rebuilt from the cells' positions, so that a cell wrapped over several lines (which pdf.js gives column by column)
 * stays in its row: a row starts on a line with a cell in the first column. Two columns of running text are not a
 * table, nor are fewer than two rows of several cells.
 */
export function findTables(lines: Line[]): PdfTable[] {
  const tables: PdfTable[] = [];
  const multi = (line: Line | undefined) => (line?.cells?.length ?? 0) >= 2 && !line!.item;
  // The next line is part of the run when it is not far below the run's lowest line so far, nor far above the line
  // before it.
  const near = (bottom: number, a: Line, b: Line) =>
    b.y - a.y <= BACK_REACH * Math.max(a.size, b.size) &&
    bottom - b.y <= ROW_REACH * Math.max(a.size, b.size);
  // A line in another font size (a heading, a note in small print) is not part of the table.
  const sameSize = (a: Line, b: Line) => Math.abs(a.size - b.size) <= 0.5;
  for (let i = 0; i < lines.length; i++) {
    if (!multi(lines[i])) continue;
    let last = i;
    let bottom = lines[i]!.y;
    for (
      let k = i + 1;
      k < lines.length && near(bottom, lines[k - 1]!, lines[k]!) && sameSize(lines[i]!, lines[k]!);
      k++
    ) {
      if (lines[k]!.item) break;
      if (multi(lines[k])) last = k;
      else if ((lines[k]!.cells?.length ?? 1) !== 1) break;
      bottom = Math.min(bottom, lines[k]!.y);
    }
    const table = tableOf(lines, i, last);
    if (table) {
      tables.push(table);
      i = table.end;
    }
  }
  return tables;
}

function tableOf(lines: Line[], start: number, last: number): PdfTable | null {
  const rowLines = lines.slice(start, last + 1).filter((l) => (l.cells?.length ?? 0) >= 2);
  if (rowLines.length < 2) return null;
  const columns: Column[] = [];
  for (const line of rowLines) {
    for (const cell of line.cells!) {
      const column = columns.find((c) => overlap(c, cell) > -ALIGN);
      if (column) {
        column.x0 = Math.min(column.x0, cell.x0);
        column.x1 = Math.max(column.x1, cell.x1);
      } else columns.push({ x0: cell.x0, x1: cell.x1 });
    }
  }
  // Columns that grew into each other are one.
  columns.sort((a, b) => a.x0 - b.x0);
  for (let c = columns.length - 1; c > 0; c--) {
    if (overlap(columns[c - 1]!, columns[c]!) > 0) {
      columns[c - 1]!.x1 = Math.max(columns[c - 1]!.x1, columns[c]!.x1);
      columns.splice(c, 1);
    }
  }
  if (columns.length < 2 || (rowLines.length === 2 && columns.length < 3)) return null;
  const cellTexts = rowLines.flatMap((l) => l.cells!.map((c) => c.text.length));
  if (columns.length === 2 && cellTexts.reduce((a, b) => a + b, 0) / cellTexts.length > PROSE_CELL)
    return null;
  // A cell starting where a column starts is that column's (a section row reaching over the next column too).
  const columnOf = (cell: Cell) => {
    const starting = columns.findIndex((c) => Math.abs(c.x0 - cell.x0) <= ALIGN);
    if (starting >= 0) return starting;
    let best = 0;
    let most = Number.NEGATIVE_INFINITY;
    columns.forEach((c, i) => {
      const o = overlap(c, cell);
      if (o > most) [best, most] = [i, o];
    });
    return best;
  };
  // A cell fits the columns when it starts where one starts or lies within one (a right-aligned figure).
  const fits = (cell: Cell) =>
    columns.some(
      (c) => Math.abs(c.x0 - cell.x0) <= ALIGN || (cell.x0 >= c.x0 - ALIGN && cell.x1 <= c.x1 + ALIGN),
    );
  const aligned = (line: Line) => (line.cells ?? []).every(fits);
  // The single-cell lines after the last row that continue its wrapped cells: in a later column, between the last
  // row's top and just below the table's lowest line.
  let end = last;
  let bottom = Math.min(...lines.slice(start, last + 1).map((l) => l.y));
  while (end + 1 < lines.length) {
    const next = lines[end + 1]!;
    const continues =
      next.cells?.length === 1 &&
      !next.item &&
      columnOf(next.cells[0]!) > 0 &&
      aligned(next) &&
      next.y <= lines[last]!.y + 0.5 * next.size &&
      next.y >= bottom - WRAP_REACH * next.size;
    if (!continues) break;
    end++;
    bottom = Math.min(bottom, next.y);
  }
  const region = lines.slice(start, end + 1);
  // A line that does not fit the columns (a note, the text after the table) ends the table before it.
  const misfit = region.findIndex((line) => !aligned(line));
  if (misfit >= 0) {
    const before = lines.slice(start, start + misfit).findLastIndex((l) => (l.cells?.length ?? 0) >= 2);
    return before > 0 ? tableOf(lines, start, start + before) : null;
  }
  const placed = region.flatMap((line) =>
    (line.cells ?? []).map((cell) => ({ cell, y: line.y, size: line.size, column: columnOf(cell) })),
  );
  // Rows top down: a row starts at each height with a cell in the first column.
  const starts = [...new Set(placed.filter((p) => p.column === 0).map((p) => p.y))].sort((a, b) => b - a);
  const top = Math.max(...placed.map((p) => p.y));
  if (starts.length === 0 || starts[0]! < top - 0.5 * placed[0]!.size) starts.unshift(top);
  const rows: string[][][] = starts.map(() => columns.map(() => []));
  for (const p of [...placed].sort((a, b) => b.y - a.y)) {
    let r = 0;
    while (r + 1 < starts.length && starts[r + 1]! >= p.y - 0.4 * p.size) r++;
    rows[r]![p.column]!.push(p.cell.text);
  }
  const texts = rows.map((row) => row.map(joinWrapped)).filter((row) => row.some((cell) => cell));
  return { start, end, rows: texts, header: !texts[0]!.some(isFigure) };
}

/** A cell's lines as one text; a word hyphenated at a line end is joined ("Sicherheitstemperaturbegre-" "nzer"). */
function joinWrapped(parts: string[]): string {
  let text = '';
  for (const part of parts) {
    if (!text) text = part;
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(part) && !/^(und|oder|bzw|sowie)\b/u.test(part))
      text = text.slice(0, -1) + part;
    else text = `${text} ${part}`;
  }
  return text;
}
