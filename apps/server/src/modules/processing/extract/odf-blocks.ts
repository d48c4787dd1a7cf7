import { type Block, type Extracted, ExtractionError } from './blocks.ts';
import { CellBudget, sheetBlocks } from './sheet-table.ts';
import { findAll, firstOf, parseXml, textOf, type XmlNode } from './xml-tree.ts';
import { readZipEntries } from './zip-entries.ts';

/** Parts of a paragraph that are not its text: comments and the record of tracked deletions. */
const NOT_TEXT = new Set(['office:annotation', 'text:tracked-changes', 'text:note-citation']);
/** Frames of a slide that repeat on every page or show a picture of the slide. */
const CHROME_CLASSES = new Set(['page-number', 'date-time', 'footer', 'header', 'page']);

async function contentOf(buffer: Buffer): Promise<XmlNode> {
  const parts = await readZipEntries(
    buffer,
    (name) => name === 'content.xml' || name === 'META-INF/manifest.xml',
  );
  const manifest = parts.get('META-INF/manifest.xml');
  if (manifest && findAll(parseXml(manifest, 'manifest'), 'manifest:encryption-data').length > 0) {
    throw new ExtractionError('FILE_PASSWORD_PROTECTED', 'encrypted OpenDocument');
  }
  return parseXml(parts.get('content.xml'), 'content.xml');
}

function tableRows(table: XmlNode): string[][] {
  return findAll(table, 'table:table-row')
    .map((row) =>
      findAll(row, ['table:table-cell', 'table:covered-table-cell']).map((c) => textOf(c, NOT_TEXT)),
    )
    .filter((row) => row.some((cell) => cell));
}

/** Headings, paragraphs, list items and tables of a text body or a slide, in document order. */
function textBlocks(node: XmlNode, page: number | undefined, blocks: Block[], inList = false): Block[] {
  for (const child of node.children) {
    if (NOT_TEXT.has(child.name)) continue;
    if (child.name === 'text:h') {
      const text = textOf(child, NOT_TEXT);
      const level = Math.min(6, Math.max(1, Number(child.attrs['text:outline-level'] ?? 1) || 1));
      if (text) blocks.push({ kind: 'heading', level, text, page });
    } else if (child.name === 'text:p') {
      const text = textOf(child, NOT_TEXT);
      if (text) blocks.push({ kind: inList ? 'listItem' : 'paragraph', text, page });
    } else if (child.name === 'table:table') {
      const rows = tableRows(child);
      if (rows.length) blocks.push({ kind: 'table', rows, page });
    } else if (child.name === 'text:list') {
      textBlocks(child, page, blocks, true);
    } else if (child.name === 'draw:frame' && CHROME_CLASSES.has(child.attrs['presentation:class'] ?? '')) {
      // slide numbers, dates, footers
    } else if (child.name === 'draw:frame' && child.attrs['presentation:class'] === 'title') {
      const text = textOf(child, NOT_TEXT);
      if (text) blocks.push({ kind: 'heading', level: 1, text, page });
    } else textBlocks(child, page, blocks, inList);
  }
  return blocks;
}

/** An .odt: headings by outline level, paragraphs, lists and tables. */
export async function odtToBlocks(buffer: Buffer): Promise<Extracted> {
  const body = firstOf(await contentOf(buffer), 'office:text');
  if (!body) throw new ExtractionError('FILE_CORRUPT', 'no text body');
  return { blocks: textBlocks(body, undefined, []), pageCount: null };
}

/** An .odp: each slide's title, text and tables, then its notes, one page per slide. */
export async function odpToBlocks(buffer: Buffer): Promise<Extracted> {
  const slides = findAll(await contentOf(buffer), 'draw:page');
  if (slides.length === 0) throw new ExtractionError('FILE_CORRUPT', 'no slides');
  const blocks = slides.flatMap((slide, i) => textBlocks(slide, i + 1, []));
  return { blocks, pageCount: slides.length };
}

const repeat = (node: XmlNode, attr: string) => Math.max(1, Number(node.attrs[attr] ?? 1) || 1);

/**
 * One sheet's rows with ODF's repetitions unfolded (`number-rows-repeated`, `number-columns-repeated`). Empty rows
 * and trailing empty cells are left out before unfolding: a sheet ends with a million repeated empty rows.
 */
function sheetRows(sheet: XmlNode, budget: CellBudget): string[][] {
  const rows: string[][] = [];
  for (const row of findAll(sheet, 'table:table-row')) {
    const cells = findAll(row, ['table:table-cell', 'table:covered-table-cell']).map((cell) => ({
      text: textOf(cell, NOT_TEXT),
      times: repeat(cell, 'table:number-columns-repeated'),
    }));
    while (cells.length && !cells.at(-1)!.text) cells.pop();
    if (cells.length === 0) continue;
    const width = cells.reduce((sum, c) => sum + c.times, 0);
    const times = repeat(row, 'table:number-rows-repeated');
    budget.take(width * times);
    const values = cells.flatMap((c) => Array<string>(c.times).fill(c.text));
    for (let i = 0; i < times; i++) rows.push(values);
  }
  return rows;
}

/** An .ods: each sheet as a table under its name, one page per sheet. */
export async function odsToBlocks(buffer: Buffer): Promise<Extracted> {
  const spreadsheet = firstOf(await contentOf(buffer), 'office:spreadsheet');
  if (!spreadsheet) throw new ExtractionError('FILE_CORRUPT', 'no spreadsheet body');
  const sheets = findAll(spreadsheet, 'table:table');
  const budget = new CellBudget();
  const blocks = sheets.flatMap((sheet, i) =>
    sheetBlocks(sheet.attrs['table:name'] ?? String(i + 1), sheetRows(sheet, budget), i + 1),
  );
  return { blocks, pageCount: sheets.length };
}
