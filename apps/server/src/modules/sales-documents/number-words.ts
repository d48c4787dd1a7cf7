import { normalizeWord } from '../search/query-translation/question-words.ts';

/**
 * Quantities written as words in a job description ("zwei Heizkörper", "three hours", "четыре термостата"), in the
 * nine languages of the product. No npm package reads number words in all of them (the well-kept ones are English
 * only), and a job names small counts: so each language's words for 1 to 20, the tens and a hundred, in the forms a
 * count takes before a noun (German "einen", Russian "две", Polish "dwie", Arabic "ثلاث"), and two-word numbers of a
 * ten and a unit ("twenty five", "двадцать пять", "vingt-cinq", German "fünfundzwanzig").
 */

/** Each language's words for 1, 2, 3 …: one entry per value, its forms separated by "/". */
const UNITS: Record<string, string[]> = {
  de: [
    'ein/eine/einen/einem/einer/eins',
    'zwei',
    'drei',
    'vier',
    'fünf',
    'sechs',
    'sieben',
    'acht',
    'neun',
    'zehn',
    'elf',
    'zwölf',
    'dreizehn',
    'vierzehn',
    'fünfzehn',
    'sechzehn',
    'siebzehn',
    'achtzehn',
    'neunzehn',
  ],
  en: [
    'one/a single',
    'two',
    'three',
    'four',
    'five',
    'six',
    'seven',
    'eight',
    'nine',
    'ten',
    'eleven',
    'twelve',
    'thirteen',
    'fourteen',
    'fifteen',
    'sixteen',
    'seventeen',
    'eighteen',
    'nineteen',
  ],
  fr: [
    'un/une',
    'deux',
    'trois',
    'quatre',
    'cinq',
    'six',
    'sept',
    'huit',
    'neuf',
    'dix',
    'onze',
    'douze',
    'treize',
    'quatorze',
    'quinze',
    'seize',
    'dix-sept',
    'dix-huit',
    'dix-neuf',
  ],
  it: [
    'un/uno/una',
    'due',
    'tre',
    'quattro',
    'cinque',
    'sei',
    'sette',
    'otto',
    'nove',
    'dieci',
    'undici',
    'dodici',
    'tredici',
    'quattordici',
    'quindici',
    'sedici',
    'diciassette',
    'diciotto',
    'diciannove',
  ],
  pt: [
    'um/uma',
    'dois/duas',
    'três',
    'quatro',
    'cinco',
    'seis',
    'sete',
    'oito',
    'nove',
    'dez',
    'onze',
    'doze',
    'treze',
    'catorze/quatorze',
    'quinze',
    'dezesseis/dezasseis',
    'dezessete/dezassete',
    'dezoito',
    'dezenove/dezanove',
  ],
  pl: [
    'jeden/jedna/jedno/jedną/jednego/jednej',
    'dwa/dwie/dwóch/dwu/dwom/dwoma/dwiema',
    'trzy/trzech/trzem/trzema',
    'cztery/czterech/czterem/czterema',
    'pięć/pięciu',
    'sześć/sześciu',
    'siedem/siedmiu',
    'osiem/ośmiu',
    'dziewięć/dziewięciu',
    'dziesięć/dziesięciu',
    'jedenaście',
    'dwanaście',
    'trzynaście',
    'czternaście',
    'piętnaście',
    'szesnaście',
    'siedemnaście',
    'osiemnaście',
    'dziewiętnaście',
  ],
  ru: [
    'один/одна/одно/одну/одного/одной/одним/одном',
    'два/две/двух/двум/двумя',
    'три/трёх/трём/тремя',
    'четыре/четырёх/четырём/четырьмя',
    'пять/пяти/пятью',
    'шесть/шести/шестью',
    'семь/семи/семью',
    'восемь/восьми/восемью',
    'девять/девяти/девятью',
    'десять/десяти/десятью',
    'одиннадцать',
    'двенадцать',
    'тринадцать',
    'четырнадцать',
    'пятнадцать',
    'шестнадцать',
    'семнадцать',
    'восемнадцать',
    'девятнадцать',
  ],
  uk: [
    'один/одна/одне/одну/одного/однієї/одним',
    'два/дві/двох/двом/двома',
    'три/трьох/трьом/трьома',
    'чотири/чотирьох/чотирьом/чотирма',
    "п'ять/п'яти/п'ятьох",
    'шість/шести/шістьох',
    'сім/семи/сімох',
    'вісім/восьми/вісьмох',
    "дев'ять/дев'яти/дев'ятьох",
    'десять/десяти/десятьох',
    'одинадцять',
    'дванадцять',
    'тринадцять',
    'чотирнадцять',
    "п'ятнадцять",
    'шістнадцять',
    'сімнадцять',
    'вісімнадцять',
    "дев'ятнадцять",
  ],
  ar: [
    'واحد/واحدة',
    'اثنان/اثنين/اثنتان/اثنتين',
    'ثلاثة/ثلاث',
    'أربعة/أربع',
    'خمسة/خمس',
    'ستة/ست',
    'سبعة/سبع',
    'ثمانية/ثماني/ثمان',
    'تسعة/تسع',
    'عشرة/عشر',
  ],
};

/** Each language's tens from 20 to 90, then its hundred. */
const TENS: Record<string, string[]> = {
  de: [
    'zwanzig',
    'dreißig',
    'vierzig',
    'fünfzig',
    'sechzig',
    'siebzig',
    'achtzig',
    'neunzig',
    'hundert/einhundert',
  ],
  en: ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'hundred/one hundred'],
  fr: [
    'vingt',
    'trente',
    'quarante',
    'cinquante',
    'soixante',
    'soixante-dix',
    'quatre-vingts/quatre-vingt',
    'quatre-vingt-dix',
    'cent',
  ],
  it: ['venti', 'trenta', 'quaranta', 'cinquanta', 'sessanta', 'settanta', 'ottanta', 'novanta', 'cento'],
  pt: ['vinte', 'trinta', 'quarenta', 'cinquenta', 'sessenta', 'setenta', 'oitenta', 'noventa', 'cem/cento'],
  pl: [
    'dwadzieścia',
    'trzydzieści',
    'czterdzieści',
    'pięćdziesiąt',
    'sześćdziesiąt',
    'siedemdziesiąt',
    'osiemdziesiąt',
    'dziewięćdziesiąt',
    'sto',
  ],
  ru: [
    'двадцать',
    'тридцать',
    'сорок',
    'пятьдесят',
    'шестьдесят',
    'семьдесят',
    'восемьдесят',
    'девяносто',
    'сто',
  ],
  uk: [
    'двадцять',
    'тридцять',
    'сорок',
    "п'ятдесят",
    'шістдесят',
    'сімдесят',
    'вісімдесят',
    "дев'яносто",
    'сто',
  ],
  ar: [
    'عشرون/عشرين',
    'ثلاثون/ثلاثين',
    'أربعون/أربعين',
    'خمسون/خمسين',
    'ستون/ستين',
    'سبعون/سبعين',
    'ثمانون/ثمانين',
    'تسعون/تسعين',
    'مئة/مائة',
  ],
};

/** Ukrainian writes its apostrophe as ' or ʼ (U+02BC). */
const key = (word: string) => normalizeWord(word).replace(/ʼ/g, "'");

function table(): { units: Map<string, number>; tens: Map<string, number> } {
  const units = new Map<string, number>();
  const tens = new Map<string, number>();
  for (const words of Object.values(UNITS))
    words.forEach((forms, i) => {
      for (const form of forms.split('/')) units.set(key(form), i + 1);
    });
  for (const words of Object.values(TENS))
    words.forEach((forms, i) => {
      for (const form of forms.split('/')) tens.set(key(form), i === 8 ? 100 : (i + 2) * 10);
    });
  return { units, tens };
}

const { units: UNIT_WORDS, tens: TEN_WORDS } = table();
/** German writes a ten and its unit as one word, the unit first: "fünfundzwanzig", "einundzwanzig". */
const GERMAN_COMPOUND =
  /^(ein|zwei|drei|vier|fünf|sechs|sieben|acht|neun)und(zwanzig|dreißig|vierzig|fünfzig|sechzig|siebzig|achtzig|neunzig)$/u;

/** The value of one number word ("zwei" → 2, "Zwanzig" → 20, "fünfundzwanzig" → 25), or null. */
export function numberWordValue(word: string): number | null {
  const k = key(word);
  const direct = UNIT_WORDS.get(k) ?? TEN_WORDS.get(k);
  if (direct !== undefined) return direct;
  const german = GERMAN_COMPOUND.exec(k);
  if (german) return UNIT_WORDS.get(german[1]!)! + TEN_WORDS.get(german[2]!)!;
  // French and English join a ten and its unit with a hyphen ("vingt-cinq", "twenty-five").
  const [ten, unit, more] = k.split('-');
  if (ten && unit && more === undefined) {
    const t = TEN_WORDS.get(ten);
    const u = UNIT_WORDS.get(unit);
    if (t && t < 100 && u && u < 10) return t + u;
  }
  // Arabic writes "and" (و) before the second word of a number ("ثلاث وعشرون") and before a count in a list.
  if (/^و\p{L}{2,}/u.test(k)) return numberWordValue(k.slice(1));
  return null;
}

/** A half, in each language: "eine halbe Stunde", "half an hour", "pół godziny", "نصف ساعة", "два с половиной". */
const HALF = new Set(
  'halb halbe halben half demi demie mezzo mezza meio meia pół połowa половина половину половиной половиною пів نصف'
    .split(' ')
    .map(key),
);
/** One and a half as one word: "anderthalb Stunden", "полтора часа", "півтори години", "półtora". */
const ONE_AND_A_HALF = new Set(
  'anderthalb eineinhalb полтора полторы півтора півтори półtora'.split(' ').map(key),
);
/** What joins a count to its half ("two and a half", "dwa i pół", "два с половиной"), and articles before it. */
const HALF_JOINS = new Set('und and et e y i и с з та'.split(' '));
const HALF_ARTICLES = new Set('a an ein une'.split(' '));
/** German writes a count and its half as one word: "zweieinhalb", "dreieinhalb". */
const GERMAN_AND_A_HALF = /^(zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn)einhalb$/u;

const isHalf = (word: string | undefined) => word !== undefined && HALF.has(key(word));

/**
 * How many words at `at` add a half to the count before them: "and a half" (3), "с половиной", "i pół" (2), Arabic
 * "ونصف" (1, "and" joined to "half"); 0 when none do.
 */
export function halfAt(words: string[], at: number): number {
  const first = words[at];
  if (first === undefined) return 0;
  const k = key(first);
  if (k.startsWith('و') && HALF.has(k.slice(1))) return 1;
  if (!HALF_JOINS.has(k)) return 0;
  if (isHalf(words[at + 1])) return 2;
  return HALF_ARTICLES.has(key(words[at + 1] ?? '')) && isHalf(words[at + 2]) ? 3 : 0;
}

/** The count a run of words starts with, without a half after it. */
function wholeAt(words: string[], at: number): { value: number; length: number } | null {
  const first = words[at]!;
  const k = key(first);
  if (ONE_AND_A_HALF.has(k)) return { value: 1.5, length: 1 };
  const german = GERMAN_AND_A_HALF.exec(k);
  if (german) return { value: UNIT_WORDS.get(german[1]!)! + 0.5, length: 1 };
  // "half an hour", "eine halbe Stunde": a half alone, or after the article that reads as "one".
  if (HALF.has(k)) return { value: 0.5, length: HALF_ARTICLES.has(key(words[at + 1] ?? '')) ? 2 : 1 };
  const pair = words[at + 1] === undefined ? null : UNIT_WORDS.get(key(`${first} ${words[at + 1]}`));
  if (pair !== undefined && pair !== null) return { value: pair, length: 2 };
  const value = numberWordValue(first);
  if (value === null) return null;
  if (value === 1 && isHalf(words[at + 1])) return { value: 0.5, length: 2 };
  const next = words[at + 1] === undefined ? null : numberWordValue(words[at + 1]!);
  if (value >= 20 && value < 100 && value % 10 === 0 && next !== null && next < 10)
    return { value: value + next, length: 2 };
  return { value, length: 1 };
}

/**
 * The number a run of words starts with and how many words it takes: "twenty five" → 25 over two words, "zwei" → 2
 * over one; "a single" counts as one word pair; a half after it counts ("two and a half" → 2.5 over four words), and
 * halves of their own ("anderthalb", "полтора" → 1.5, "half an hour" → 0.5). Null when the first word is no number
 * word.
 */
export function numberWordsAt(words: string[], at: number): { value: number; length: number } | null {
  if (words[at] === undefined) return null;
  const whole = wholeAt(words, at);
  if (!whole) return null;
  const half = whole.value % 1 === 0 ? halfAt(words, at + whole.length) : 0;
  return half > 0 ? { value: whole.value + 0.5, length: whole.length + half } : whole;
}
