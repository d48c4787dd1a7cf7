import ExcelJS from 'exceljs';
import { type Block, type Extracted, ExtractionError } from './blocks.ts';
import { CellBudget, sheetBlocks } from './sheet-table.ts';
import { readZipEntries } from './zip-entries.ts';

/** An .xlsx: each sheet as a table under its name (cells as displayed: formula results, dates), one page per sheet. */
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
  const blocks: Block[] = [];
  workbook.worksheets.forEach((sheet, i) => {
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      budget.take(row.actualCellCount);
      const values: string[] = [];
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        values[column - 1] = cell.text.replace(/\s+/g, ' ').trim();
      });
      rows.push(Array.from(values, (v) => v ?? ''));
    });
    blocks.push(...sheetBlocks(sheet.name, rows, i + 1));
  });
  return { blocks, pageCount: workbook.worksheets.length };
}
