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

/**
 * One sheet as a heading (its name) and a table: empty rows dropped, trailing empty columns cut, the first row (the
 * header, which the chunker repeats when it cuts the table) kept first. The page is the sheet's number.
 */
export function sheetBlocks(name: string, rows: string[][], page: number): Block[] {
  const filled = rows.filter((row) => row.some((cell) => cell));
  if (filled.length === 0) return [];
  const width = Math.max(...filled.map((row) => row.findLastIndex((cell) => cell) + 1));
  const table = filled.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
  return [
    { kind: 'heading', level: 1, text: name, page },
    { kind: 'table', rows: table, page },
  ];
}
