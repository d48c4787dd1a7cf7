import ExcelJS from 'exceljs';
import { format as formatNumber } from 'numfmt';
import { detectLanguage, numberLocaleOf } from '../../search/language.ts';
import { type Block, type Extracted, ExtractionError } from './blocks.ts';
import { CellBudget, sheetBlocks } from './sheet-table.ts';
import { readZipEntries } from './zip-entries.ts';

/** Characters of the workbook's text that tell its language (and so how its numbers read). */
const LANGUAGE_SAMPLE = 20_000;

/**
 * An .xlsx: each sheet as a table under its name (see `sheetBlocks`), one page per sheet, its cells as the sheet shows
 * them: formula results, and numbers and dates through their number format in the workbook's language (a German
 * price list's `#,##0.00` shows 2890 as "2.890,00", which is what its readers search and quote).
 */
export async function xlsxToBlocks(buffer: Buffer): Promise<Extracted> {
  // The archive's limits first (entry count, unpacked size): exceljs itself unpacks everything.
  await readZipEntries(buffer, () => false);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch (error) {
    throw new ExtractionError('FILE_CORRUPT', (error as Error).message);
  }
  const budget = new CellBudget();
  const sheets = workbook.worksheets.map((sheet) => {
    const rows: ExcelJS.Cell[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      budget.take(row.actualCellCount);
      const cells: ExcelJS.Cell[] = [];
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        cells[column - 1] = cell;
      });
      rows.push(cells);
    });
    return { name: sheet.name, rows };
  });
  let sample = '';
  for (const { rows } of sheets)
    for (const row of rows)
      for (const cell of row)
        if (cell && typeof cell.value === 'string' && sample.length < LANGUAGE_SAMPLE)
          sample += ` ${cell.value}`;
  const locale = numberLocaleOf(detectLanguage(sample));
  const blocks: Block[] = [];
  sheets.forEach(({ name, rows }, i) => {
    const texts = rows.map((row) => Array.from(row, (cell) => (cell ? cellText(cell, locale) : '')));
    blocks.push(...sheetBlocks(name, texts, i + 1));
  });
  return { blocks, pageCount: workbook.worksheets.length };
}

/** A cell as displayed: a number or date through its number format in the locale, anything else as exceljs reads it. */
function cellText(cell: ExcelJS.Cell, locale: string): string {
  const value = cell.type === ExcelJS.ValueType.Formula ? cell.result : cell.value;
  if (typeof value === 'number' || value instanceof Date) {
    try {
      return formatNumber(cell.numFmt || 'General', value, { locale })
        .replace(/\s+/g, ' ')
        .trim();
    } catch {
      // A format numfmt cannot read: the value as exceljs shows it.
    }
  }
  return cell.text.replace(/\s+/g, ' ').trim();
}
