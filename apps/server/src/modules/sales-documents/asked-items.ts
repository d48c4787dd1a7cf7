import { FUNCTION_WORDS, normalizeWord } from '../search/query-translation/question-words.ts';
import { halfAt, numberWordsAt } from './number-words.ts';

/**
 * A job description read as the items it asks for: "Jährliche Wartung des Gas-Brennwertkessels, zwei Heizkörper Typ
 * 22 tauschen, 3 Monteurstunden Geselle und Anfahrtspauschale" asks for four. Each item is a part of the text between
 * commas, semicolons, line breaks and the word "and" of the nine languages, with the quantity it names (in digits or
 * words) and its other words, which `item-matching.ts` looks for in the price list's rows.
 */
export interface AskedItem {
  /** The part of the job text, as written. */
  text: string;
  /** The quantity it names, or null when it names none. */
  quantity: number | null;
  /** Its words, lower case, without the quantity and function words; numbers that are no quantity ("Typ 22") stay. */
  words: string[];
}

/**
 * "and" in the nine languages, between items (Arabic joins و to the next word and is split at its comma), but not
 * the "and" of a count's half ("two and a half hours", "dwa i pół").
 */
const AND =
  /\s(?:und|sowie|and|plus|et|e|ed|i|oraz|y|и|та|і|а также|و)\s(?!(?:(?:une|ein)\s)?(?:a\s+half|demie?|mezz[oa]|mei[oa]|pół|halb\p{L}*|половин\p{L}*|пів)(?!\p{L}))/iu;
/** A comma between items, not the decimal comma of "2,5 Stunden". */
const SEPARATOR = /[;\n•·،؛]|,(?!\d)|(?<!\d),/u;

/** Words of a job: numbers with their decimals, words with inner hyphens or apostrophes, units as "m²". */
const TOKEN = /\d+(?:[.,]\d+)?|[\p{L}\p{M}²³]+(?:['’ʼ-][\p{L}\p{M}²³]+)*/gu;

/** Units a quantity stands before ("25 km", "3 Std", "2 hours"), in the languages price lists and jobs are written. */
const QUANTITY_UNITS = new Set(
  'km h std std. stunde stunden stück stk stk. m m² m2 qm lfm tag tage pauschal hour hours hrs pieces piece pcs days day heures heure pièces jours ore ora pezzi giorni horas hora peças dias godzin godziny godzina sztuk sztuki dni часа часов час штук штуки дня дней години годин штук днів ساعة ساعات قطعة قطع يوم أيام'
    .split(' ')
    .map(normalizeWord),
);
/** Words a number after them names a model or a size, not a quantity ("Typ 22", "DN 15", "Zone 2"). */
const DESIGNATIONS = new Set(
  'typ type tipo typu тип типа типу модель моделі modell model nr no. no nummer number numéro numero numer номер نوع النوع طراز dn zone zona зона größe size taille taglia tamanho rozmiar размер розмір bis über ab up to x'
    .split(' ')
    .map(normalizeWord),
);
/** Units of a size, not of a quantity ("15 mm", "3 bar", "24 kW"). */
const SIZE_UNITS = new Set(['mm', 'cm', 'bar', 'kw', 'w', 'v', 'l', 'x', 'zoll', 'inch', '°c', '%']);

const FUNCTION = new Set(Object.values(FUNCTION_WORDS).flatMap((words) => [...words]));

/** Arabic-Indic and Persian digits as ASCII digits ("٣" → "3"). */
const westernDigits = (text: string) =>
  text.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) & 0xf));

const digitValue = (token: string) => (/^\d/.test(token) ? Number(token.replace(',', '.')) : null);

/**
 * Arabic counts two by the dual ending of the noun itself ("مشعين", two radiators; "ساعتين", two hours): a word of at
 * least three letters before "ين" or "ان", its article or a joined preposition aside; not the plural "ـيين" of
 * adjectives of relation ("فنيين", technicians).
 */
const ARABIC_DUAL = /^(?:ال|لل|بال|و|ب|ل)?(\p{Script=Arabic}{3,})(?:ين|ان)$/u;
function arabicDualAt(tokens: string[]): number {
  return tokens.findIndex((token) => {
    const w = normalizeWord(token);
    const stem = ARABIC_DUAL.exec(w)?.[1];
    return stem !== undefined && !stem.endsWith('ي') && !FUNCTION.has(w);
  });
}

/** A count's place among the item's words, its value, and where a half after its noun stands (not item words). */
type Quantity = { at: number; length: number; value: number; half?: { at: number; length: number } };

/** A half that follows the count or the noun counted ("zwei und ein halb", "deux heures et demie") is added. */
function withHalf(tokens: string[], quantity: Quantity): Quantity {
  if (quantity.value % 1 !== 0) return quantity;
  const end = quantity.at + quantity.length;
  const right = halfAt(tokens, end);
  if (right > 0) return { ...quantity, value: quantity.value + 0.5, length: quantity.length + right };
  const after = halfAt(tokens, end + 1);
  return after > 0
    ? { ...quantity, value: quantity.value + 0.5, half: { at: end + 1, length: after } }
    : quantity;
}

/** Where the item's quantity stands and what it is: a number word before a word, else a number before a unit or first. */
function quantityOf(tokens: string[]): Quantity | null {
  const found = countOf(tokens);
  if (found) return withHalf(tokens, found);
  const dual = /\p{Script=Arabic}/u.test(tokens.join(' ')) ? arabicDualAt(tokens) : -1;
  // The dual noun stays among the item's words: it names the item too.
  return dual >= 0 ? withHalf(tokens, { at: dual, length: 0, value: 2 }) : null;
}

function countOf(tokens: string[]): Quantity | null {
  let fallback: Quantity | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const before = i > 0 ? normalizeWord(tokens[i - 1]!) : null;
    if (before && DESIGNATIONS.has(before)) continue;
    const word = numberWordsAt(tokens, i);
    if (word) {
      const next = tokens[i + word.length];
      // "due to", "sei es": a number word that a function word follows is no count.
      if (next && !FUNCTION.has(normalizeWord(next))) return { at: i, ...word };
      continue;
    }
    const value = digitValue(tokens[i]!);
    if (value === null || value <= 0) continue;
    const next = tokens[i + 1] ? normalizeWord(tokens[i + 1]!) : null;
    if (next && SIZE_UNITS.has(next)) continue;
    if (i === 0 || (next && QUANTITY_UNITS.has(next))) return { at: i, length: 1, value };
    fallback ??= { at: i, length: 1, value };
  }
  return fallback;
}

const within = (i: number, span: { at: number; length: number }) => i >= span.at && i < span.at + span.length;

/**
 * A half written into its noun, as the half and the noun: "полчаса" (пол + часа), "півгодини", "mezz'ora",
 * "demi-heure". Only before nouns of time and measure: "полка" or "половик" stay whole.
 */
const JOINED_HALF = [
  { pattern: /^пол(часа|дня|суток|смены|метра|литра|кило)$/iu, half: 'половина' },
  { pattern: /^пів(години|дня|доби|зміни|метра|літра)$/iu, half: 'пів' },
  { pattern: /^mezz['’]?(ora)$/iu, half: 'mezza' },
  { pattern: /^demi-(heure|journée)$/iu, half: 'demi' },
];

function withJoinedHalves(tokens: string[]): string[] {
  return tokens.flatMap((token) => {
    for (const { pattern, half } of JOINED_HALF) {
      const noun = pattern.exec(token)?.[1];
      if (noun) return [half, noun];
    }
    return [token];
  });
}

/** One item of the job: its quantity and its words. */
function readItem(text: string): AskedItem {
  const tokens = withJoinedHalves(westernDigits(text).match(TOKEN) ?? []);
  const quantity = quantityOf(tokens);
  const words = tokens
    .filter((_, i) => !quantity || !(within(i, quantity) || (quantity.half && within(i, quantity.half))))
    .map(normalizeWord)
    .filter((w) => !FUNCTION.has(w));
  return { text, quantity: quantity?.value ?? null, words };
}

/** The items a job description asks for, in its order; parts without a word (a stray "und") are no item. */
export function askedItems(job: string): AskedItem[] {
  return job
    .split(SEPARATOR)
    .flatMap((part) => part.split(AND))
    .map((part) => part.trim())
    .filter((part) => /\p{L}/u.test(part))
    .map(readItem)
    .filter((item) => item.words.length > 0);
}
