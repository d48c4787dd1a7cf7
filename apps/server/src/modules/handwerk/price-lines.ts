/**
 * The deterministic reading of price lists: rows of "item … price" in a passage's text, as craft businesses write
 * them ("Wartung Gasbrennwertkessel ........ 149,00 €", "Anfahrt je km | 0,85 EUR", "Monteurstunde 64.50 €/h").
 * Its rows are the candidates of a drafted offer; without a model (or when it fails) a row is kept when it shares a
 * word with the described job (`draft-offer.service.ts`).
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

/** One row's item and price, or null when it has none (a heading, a sentence, a date, a phone number). */
export function parsePricedRow(row: string): PricedRow | null {
  const text = row.replace(/\s+/g, ' ').trim();
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

/** Lower-case words of at least four letters, cut to a stem of six (Heizungswartung ~ Heizungs…, Kessel ~ Kessels). */
const stems = (text: string) =>
  new Set((text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).map((w) => w.slice(0, 6)));

/** Whether a row names something of the described job (a shared word stem). */
export function matchesJob(row: PricedRow, job: string): boolean {
  const wanted = stems(job);
  return [...stems(row.item)].some((s) => wanted.has(s));
}

/** A quantity the job names for a unit ("Anfahrt 25 km" -> 25 for km); 1 otherwise. */
export function quantityFor(unit: string, job: string): number {
  if (!unit) return 1;
  for (const m of job.matchAll(/(\d+(?:[.,]\d{1,3})?)\s*([\p{L}²]+\.?)/gu)) {
    if (unitOf(m[2]) === unit) return Number(m[1]!.replace(',', '.'));
  }
  return 1;
}
