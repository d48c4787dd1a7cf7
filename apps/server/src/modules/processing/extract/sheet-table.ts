import { type Block, ExtractionError } from './blocks.ts';

/** Most cells with content a workbook may have (over all its sheets); more is `FILE_PARSE_LIMIT`. */
export const MAX_SHEET_CELLS = 1_000_000;

/** Counts the cells of a workbook as they are read, and stops one that is over the limit. */
export class CellBudget {
  private used = 0;
  take(cells: number): void {
    this.used += cells;
    if (this.used > MAX_SHEET_CELLS) {
      throw new ExtractionError('FILE_PARSE_LIMIT', `more than ${MAX_SHEET_CELLS} cells`);
    }
  }
}

const filledCells = (row: string[]) => row.filter((cell) => cell).length;
/** A cell that is a figure (a price, a count, a date): a header row holds none. */
const isFigure = (cell: string) => /^[-+−]?[\d\s.,:/%€$£]+$/u.test(cell) && /\d/.test(cell);

/**
 * One sheet as a heading (its name) and what it holds: the rows above its table (a title, a note on the prices) as
 * the table's caption, the table from its first row of several filled cells that the next row continues (the
 * column names, which every cut of the table repeats), and single-cell rows after the table (notes) as paragraphs.
 * A sheet of single cells is read as paragraphs. Empty rows are dropped and trailing empty columns cut. The page is
 * the sheet's number.
 */
export function sheetBlocks(name: string, rows: string[][], page: number): Block[] {
  const filled = rows.filter((row) => row.some((cell) => cell));
  if (filled.length === 0) return [];
  const heading: Block = { kind: 'heading', level: 1, text: name, page };
  const paragraphs = (list: string[][]): Block[] =>
    list.map((row) => ({ kind: 'paragraph', text: row.filter((cell) => cell).join(' | '), page }));
  const start = filled.findIndex((row, i) => filledCells(row) >= 2 && filledCells(filled[i + 1] ?? []) >= 2);
  if (start < 0) return [heading, ...paragraphs(filled)];
  let end = filled.length;
  while (end > start + 2 && filledCells(filled[end - 1]!) === 1) end--;
  const body = filled.slice(start, end);
  const width = Math.max(...body.map((row) => row.findLastIndex((cell) => cell) + 1));
  const table = body.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
  const caption = filled
    .slice(0, start)
    .map((row) => row.filter((cell) => cell).join(' '))
    .join('\n');
  return [
    heading,
    {
      kind: 'table',
      rows: table,
      page,
      ...(caption ? { caption } : {}),
      header: !table[0]!.some(isFigure),
    },
    ...paragraphs(filled.slice(end)),
  ];
}
