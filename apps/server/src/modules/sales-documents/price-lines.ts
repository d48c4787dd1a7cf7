/**
 * The deterministic reading of price lists: rows of "item … price" in a passage's text, as craft businesses write
 * them ("Wartung Gasbrennwertkessel ........ 149,00 €", "Anfahrt je km | 0,85 EUR", "Monteurstunde 64.50 €/h").
 * Its rows are the candidates of a drafted offer (`draft-offer.service.ts`).
 */

export interface PricedRow {
  /** The item as written, without leaders and the price. */
  item: string;
  unitPriceCents: number;
  /** "h", "km", "Stk" … when the row names one; '' otherwise. */
  unit: string;
  /** The row as it stands in the passage (the cited excerpt). */
  row: string;
}

/** A price: 149,00 / 1.249,00 / 64.50 / 149 €, with a currency or two decimals at the end of the row. */
const PRICE =
  /(?:€|EUR)?\s*(\d{1,3}(?:[.\u00a0 ]\d{3})+|\d+)(?:[.,](\d{2}))?\s*(€|EUR|Euro)?\s*(?:(?:\/|je|pro|per)\s*([\p{L}²³]{1,10}\.?))?\s*$/iu;
/** "je km", "pro Stunde", "/h" before the price. */
const UNIT_BEFORE = /\s(?:je|pro|per|\/)\s*([\p{L}²³]{1,10}\.?)\s*$/iu;

const UNIT_NAMES: Record<string, string> = {
  stunde: 'h',
  std: 'h',
  'std.': 'h',
  h: 'h',
  hour: 'h',
  km: 'km',
  stück: 'Stk',
  stk: 'Stk',
  'stk.': 'Stk',
  m: 'm',
  m2: 'm²',
  'm²': 'm²',
  pauschal: 'pauschal',
};
const unitOf = (word: string | undefined) => (word ? (UNIT_NAMES[word.toLowerCase()] ?? word) : '');

/** A cell that names a unit: one short word ("Stk", "Std", "pauschal", "m²", "Fl"), no digits. */
const UNIT_CELL = /^[\p{L}²³]{1,10}\.?$/u;
/** Units price lists write in a cell of their own, beside those of UNIT_NAMES. */
const UNIT_WORDS = new Set([
  'set',
  'fl',
  'tag',
  'tage',
  'rolle',
  'dose',
  'kart',
  'psch',
  'lfm',
  'qm',
  'kg',
  'l',
  'paar',
]);
const isUnit = (cell: string) => {
  const lower = cell.toLowerCase();
  return lower in UNIT_NAMES || UNIT_WORDS.has(lower.replace(/\.$/, ''));
};
/** A cell that cannot be the item: an article number ("L-110", "H-1020", "4711", no word of three letters), a unit. */
const notItem = (cell: string) => !/\p{L}{3}/u.test(cell) || isUnit(cell);

/**
 * A table row as the passages write it (its cells joined by " | ": "L-110 | Monteurstunde Geselle | Std | 74,50"):
 * the item is the longest cell with words, the unit a cell of one short word after it, the price the last cell;
 * article numbers and packing units stay out of the item. Null when the last cell is no price or no cell an item.
 */
function parseTableRow(cells: string[], text: string): PricedRow | null {
  const last = cells.at(-1)!;
  const price = PRICE.exec(last);
  if (price?.index !== 0) return null;
  const [whole, euros, cents, currency, unitAfter] = price;
  if (!currency && !/€|EUR/i.test(whole!) && cents === undefined) return null;
  const rest = cells.slice(0, -1);
  const itemAt = rest.reduce(
    (best, cell, i) => (!notItem(cell) && cell.length > (rest[best]?.length ?? 0) ? i : best),
    -1,
  );
  if (itemAt < 0) return null;
  const unitCell = rest.slice(itemAt + 1).find((cell) => UNIT_CELL.test(cell));
  const unitPriceCents = Number(euros!.replace(/[.\u00a0 ]/g, '')) * 100 + Number(cents ?? 0);
  if (!Number.isSafeInteger(unitPriceCents) || unitPriceCents <= 0) return null;
  return { item: rest[itemAt]!, unitPriceCents, unit: unitCell ?? unitOf(unitAfter), row: text };
}

/** One row's item and price, or null when it has none (a heading, a sentence, a date, a phone number). */
export function parsePricedRow(row: string): PricedRow | null {
  const text = row.replace(/\s+/g, ' ').trim();
  const cells = text.split('|').map((cell) => cell.trim());
  while (cells.length > 0 && !cells.at(-1)) cells.pop();
  if (cells.filter((cell) => cell).length >= 3) return parseTableRow(cells, text);
  const match = PRICE.exec(text);
  if (!match) return null;
  const [whole, euros, cents, currency, unitAfter] = match;
  // Without a currency sign the price needs its cents: "Kessel 2" is no price, "Kessel 149,00" is.
  if (!currency && !/€|EUR/i.test(whole!) && cents === undefined) return null;
  let item = text
    .slice(0, match.index)
    .replace(/[\s.:;|·…_–-]+$/u, '')
    .trim();
  let unit = unitOf(unitAfter);
  const before = UNIT_BEFORE.exec(` ${item}`);
  if (before) {
    unit ||= unitOf(before[1]);
    item = ` ${item}`.slice(0, before.index).trim();
  }
  if (!/\p{L}{3}/u.test(item)) return null;
  const unitPriceCents = Number(euros!.replace(/[.\u00a0 ]/g, '')) * 100 + Number(cents ?? 0);
  if (!Number.isSafeInteger(unitPriceCents) || unitPriceCents <= 0) return null;
  return { item: item.replace(/[\s|]+/g, ' ').trim(), unitPriceCents, unit, row: text };
}

/** Every priced row of a passage (its lines, or the cells of a table row joined by "|"). */
export function pricedRows(text: string): PricedRow[] {
  return text.split(/\r?\n/).flatMap((row) => {
    const parsed = parsePricedRow(row);
    return parsed ? [parsed] : [];
  });
}
