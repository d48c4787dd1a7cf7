/**
 * Quantities a question states as its circumstance ("bei 8 Stunden Arbeit", "7 hours", "16-jähriger") and the
 * bounds a document puts on them ("mehr als sechs bis zu neun Stunden", "nicht mehr als acht Stunden", "noch nicht
 * 18 Jahre"): the law writes the rule for a range, the asker names the case. The built-in answerer matches the
 * question's figure with a unit that bounds the same kind of quantity by the range that holds it, and not with a
 * unit that names the figure only as a bound that excludes it ("noch nicht 17 Jahre" is no rule for a 17-year-old).
 */

/** A bound on a quantity of a unit: low < x (or ≤) and x < high (or ≤). */
export interface FigureRange {
  /** As the text writes it ("mehr als sechs bis zu neun Stunden"). */
  text: string;
  unit: string;
  low: number;
  lowIn: boolean;
  high: number;
  highIn: boolean;
}

/** Units of time and age, in the question languages, by what they measure. */
const UNITS: Array<[string, RegExp]> = [
  ['min', /^(?:minuten?|min|minutes?|минут\p{L}*|хвилин\p{L}*|minut\p{L}*|dakika\p{L}*|دقيق\p{L}*|دقائق)$/u],
  ['h', /^(?:stunden?|std|h|hours?|час\p{L}*|годин\p{L}*|godzin\p{L}*|saat\p{L}*|ساع\p{L}*)$/u],
  [
    'd',
    /^(?:(?:werk|arbeits|kalender)?tage?n?|days?|working days?|дн\p{L}*|день|дня|днів|dni|dzień|gün\p{L}*|يوم|أيام)$/u,
  ],
  ['w', /^(?:wochen?|weeks?|недел\p{L}*|тиж\p{L}*|tygodni\p{L}*|hafta\p{L}*|أسبوع\p{L}*|أسابيع)$/u],
  ['mo', /^(?:monate?n?|months?|месяц\p{L}*|місяц\p{L}*|miesi\p{L}*|ay|ayl\p{L}*|شهر|أشهر|شهور)$/u],
  [
    'y',
    /^(?:(?:lebens)?jahre?n?|years?|лет|год\p{L}*|рок\p{L}*|років|lat|lata|yaş\p{L}*|yıl\p{L}*|سنة|سنوات|عام)$/u,
  ],
];

const unitOf = (word: string): string | null =>
  UNITS.find(([, pattern]) => pattern.test(word.toLowerCase()))?.[0] ?? null;

/** Number words of the documents' languages, with their values. */
const NUMBER_WORDS = new Map(
  (
    'ein:1 eine:1 einem:1 einer:1 eines:1 einen:1 eineinhalb:1.5 anderthalb:1.5 zwei:2 drei:3 vier:4 ' +
    'viereinhalb:4.5 fünf:5 sechs:6 sieben:7 acht:8 neun:9 zehn:10 elf:11 zwölf:12 dreizehn:13 ' +
    'vierzehn:14 fünfzehn:15 sechzehn:16 siebzehn:17 achtzehn:18 neunzehn:19 zwanzig:20 dreißig:30 ' +
    'vierzig:40 fünfzig:50 sechzig:60 one:1 two:2 three:3 four:4 five:5 six:6 seven:7 eight:8 nine:9 ' +
    'ten:10 eleven:11 twelve:12 fifteen:15 sixteen:16 seventeen:17 eighteen:18 twenty:20 thirty:30'
  )
    .split(' ')
    .map((entry) => {
      const [word, value] = entry.split(':');
      return [word!, Number(value)] as const;
    }),
);

/** A figure in digits ("8", "4,5") or a number word ("sechs", "viereinhalb"), or null. */
function figureValue(word: string): number | null {
  const lower = word.toLowerCase();
  if (/^\d+(?:[.,]\d+)?$/.test(lower)) return Number(lower.replace(',', '.'));
  return NUMBER_WORDS.get(lower) ?? null;
}

const NUMBER = '(\\d+(?:[.,]\\d+)?|\\p{L}+)';
const UNIT = '(\\p{L}+)';
/**
 * The bounds a document writes, each with where its figures and unit are (German and English); a text's span is read
 * by the first pattern that matches it, so "nicht mehr als acht Stunden" is an upper bound before "mehr als" reads it.
 */
const BOUNDS: Array<{
  pattern: RegExp;
  range: (a: number, b: number) => Omit<FigureRange, 'unit' | 'text'>;
}> = [
  {
    // "mehr als sechs bis zu neun Stunden", "von mehr als viereinhalb bis zu sechs Stunden"
    pattern: new RegExp(`(?:mehr als|more than) ${NUMBER} (?:bis(?: zu)?|up to|to) ${NUMBER} ${UNIT}`, 'giu'),
    range: (a, b) => ({ low: a, lowIn: false, high: b, highIn: true }),
  },
  {
    pattern: new RegExp(
      `(?:von|zwischen|between|from) ${NUMBER} (?:bis|und|and|to) ${NUMBER} ${UNIT}`,
      'giu',
    ),
    range: (a, b) => ({ low: a, lowIn: true, high: b, highIn: true }),
  },
  {
    pattern: new RegExp(
      `(?:nicht mehr als|bis zu|höchstens|maximal|längstens|not more than|up to|at most) ${NUMBER} ${UNIT}`,
      'giu',
    ),
    range: (a) => ({ low: Number.NEGATIVE_INFINITY, lowIn: false, high: a, highIn: true }),
  },
  {
    pattern: new RegExp(`(?:mehr als|länger als|über|more than|longer than|over) ${NUMBER} ${UNIT}`, 'giu'),
    range: (a) => ({ low: a, lowIn: false, high: Number.POSITIVE_INFINITY, highIn: false }),
  },
  {
    pattern: new RegExp(`(?:mindestens|wenigstens|at least) ${NUMBER} ${UNIT}`, 'giu'),
    range: (a) => ({ low: a, lowIn: true, high: Number.POSITIVE_INFINITY, highIn: false }),
  },
  {
    pattern: new RegExp(
      `(?:noch nicht|unter|weniger als|kürzer als|not yet|under|less than) ${NUMBER} ${UNIT}`,
      'giu',
    ),
    range: (a) => ({ low: Number.NEGATIVE_INFINITY, lowIn: false, high: a, highIn: false }),
  },
];

/** The bounds on quantities of time and age a text writes (one per figure: the first pattern that reads it). */
export function figureRanges(text: string): FigureRange[] {
  const out: FigureRange[] = [];
  const taken: Array<[number, number]> = [];
  const nfc = text.normalize('NFC');
  for (const { pattern, range } of BOUNDS) {
    for (const m of nfc.matchAll(pattern)) {
      const start = m.index ?? 0;
      const end = start + m[0].length;
      if (taken.some(([s, e]) => start < e && end > s)) continue;
      const figures = m.slice(1, -1).map((w) => figureValue(w!));
      const unit = unitOf(m[m.length - 1]!);
      if (!unit || figures.some((f) => f === null)) continue;
      taken.push([start, end]);
      out.push({ text: m[0], unit, ...range(figures[0]!, figures[1] ?? figures[0]!) });
    }
  }
  return out;
}

const inRange = (r: FigureRange, value: number): boolean =>
  (r.lowIn ? value >= r.low : value > r.low) && (r.highIn ? value <= r.high : value < r.high);

/** A quantity a question states (`askedQuantities`). */
export interface Quantity {
  value: number;
  unit: string;
}

/** Whether a bound is on the quantity's unit and holds its value. */
export const holdsQuantity = (r: FigureRange, q: Quantity): boolean =>
  r.unit === q.unit && inRange(r, q.value);

/**
 * The quantities a question names with their unit, by the figure as written ("8 Stunden" → 8 of "h", "16-jähriger"
 * and "16-year-old" → 16 of "y").
 */
export function askedQuantities(question: string): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  const text = question.normalize('NFC');
  for (const m of text.matchAll(
    /(\d+)\s*-?\s*(?:jährig\p{L}*|year-old|years? old|летн\p{L}*|річн\p{L}*|letni\p{L}*)/giu,
  ))
    out.set(m[1]!, { value: Number(m[1]), unit: 'y' });
  for (const m of text.matchAll(/(\d+(?:[.,]\d+)?)[\s-]*(\p{L}+)/gu)) {
    const unit = unitOf(m[2]!);
    if (unit && !out.has(m[1]!)) out.set(m[1]!, { value: Number(m[1]!.replace(',', '.')), unit });
  }
  return out;
}
