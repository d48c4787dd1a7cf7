import type { Language, SearchHit } from '@werkwissen/shared';
import { translate } from '../../i18n/translator.ts';
import { BuiltinEmbedder } from '../embedding/builtin-embedder.ts';
import { NUMBERED } from '../processing/chunker.ts';
import { type QueryTranslation, translationText } from '../search/query-translation/translation.ts';
import { askedQuantities, type FigureRange, figureRanges, holdsQuantity } from './figure-ranges.ts';
import {
  type AskedWord,
  askedWord,
  fold,
  isFunctionWord,
  matchWord,
  type WordSet,
  wordSet,
  wordsOf,
} from './word-match.ts';

/**
 * The answerer of the embedded default, with no model and no network: it quotes, verbatim, the sentence, table row
 * or list item of the retrieved passages that answers the question (a row with its column names), cites its passage
 * (which opens the whole passage), and says plainly when nothing in the passages holds what the question asks: a
 * wrong quote is worse than an honest "not found".
 */

/**
 * Below this confidence (the best unit's score: the weighted share of the question's words it holds, in itself or in
 * the headings and column names above it, with the answer-type evidence; plus its lead over other passages, see
 * DISTINCT_WEIGHT) the answerer says it does not know. Chosen with `bench:answer` on the Handwerk set so that wrong
 * answers stay rarer than refusals (docs/decisions/0038-extractive-builtin-answerer.md, 0068-answers.md).
 */
export const MIN_CONFIDENCE = 0.9;
/**
 * The confidence adds this share of the best unit's lead over the best unit of any other passage (at most
 * DISTINCT_CAP; a rival that holds more lowers it; a unit that lacks the question's model or size is a rival by what
 * it holds otherwise): an answer that one passage gives clearly is more likely right than one that several passages
 * offer almost equally (bench:answer, Handwerk: most wrong quotes had a rival within 0.05, most right ones none within
 * 0.2).
 */
const DISTINCT_WEIGHT = 0.5;
const DISTINCT_CAP = 0.3;
/** A further unit is quoted when it scores nearly as well as the best one and holds words the best one misses. */
const NEAR_BEST = 0.85;
/** ...or when it ties with the best one (a second row of the same kind). */
const TIE = 0.97;
const MAX_UNITS = 3;
const MAX_CHARS = 700;
/** A best sentence shorter than this brings the next sentence of its passage along, for context. */
const SHORT_SENTENCE = 80;
/** What a word found only in the headings, caption or column names above a unit is worth. */
const CONTEXT_MATCH = 0.6;
/** ...and in the column names of a row's table, which name what the row's cells hold ("CO₂ bei Volllast | 9,2 %"). */
const COLUMN_MATCH = 0.85;
/** The answer-type evidence's share of a unit's score, and the character n-gram similarity's. */
const CUE_SHARE = 0.2;
const NGRAM_SHARE = 0.1;
/** An identifying figure or code of the question (a size, an article number, "F28") weighs this much more. */
const SPECIFIC_WEIGHT = 1.5;
/** Added for the passage's rank in the search (its score over the best one's). */
const PASSAGE_PRIOR = 0.1;
/** Added, at most, for a short unit (fading out at LONG_UNIT distinct words). */
const CONCISE = 0.05;
const LONG_UNIT = 60;
/** A unit without the price or weight the question asks for scores this share. */
const MISSING_STRONG_CUE = 0.6;
/** Added for a table row whose first cell is the code the question asks about. */
const KEYED_ROW = 0.4;
/** A question word counts as held by a unit (for its rarity, and for what a quote covers) from this match on. */
const STRONG_MATCH = 0.7;
/**
 * A lower-case question word held by no retrieved unit (no match from this on) weighs this share
 * (docs/decisions/0078-answer-confidence.md).
 */
const UNHELD = 0.5;
const UNHELD_WEIGHT = 0.25;
/** A word's weight: this share from its rarity in the company's passages, the rest from the retrieved text. */
const INDEX_RARITY = 0.7;

export interface ExtractiveAnswer {
  text: string;
  /** The cited passages, `[n]` in the text pointing to `hits[n-1]` of this list. */
  cited: SearchHit[];
  noAnswer: boolean;
  /** The best unit's score with its lead over other passages (see DISTINCT_WEIGHT); 0 without passages. */
  confidence: number;
}

export interface AnswerOptions {
  /** The previous question, for a short follow-up. */
  context?: string;
  /** Visitors of a public chat read "the documents", members "your documents". */
  audience?: 'member' | 'visitor';
  /** The refusal threshold (the benchmark sweeps it; the product uses MIN_CONFIDENCE). */
  minConfidence?: number;
  /** The question in the documents' languages (query-translation), whose words the quotes are matched with. */
  translations?: QueryTranslation[];
  /** The share of the company's passages that hold each (folded) word of the question (`wordRarity`). */
  rarity?: Map<string, number>;
}

/** The content words of a text, lower case (function words, fillers and question words dropped; figures kept). */
export function contentStems(text: string): string[] {
  const all = (text.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase());
  const content = all.filter(
    (w) => !isFunctionWord(fold(w)) && !isFunctionWord(w) && (w.length > 1 || /\p{N}/u.test(w)),
  );
  return content.length > 0 ? content : all;
}

const UNICODE_BOUNDARY = '(?:(?<![\\p{L}\\p{N}])(?=[\\p{L}\\p{N}])|(?<=[\\p{L}\\p{N}])(?![\\p{L}\\p{N}]))';
/** `\b` of a JavaScript pattern only knows ASCII letters ("coût", "cenę"): a word boundary for every script. */
const unicodeWords = (re: RegExp) => new RegExp(re.source.replaceAll('\\b', UNICODE_BOUNDARY), re.flags);

/**
 * What a question asks for, in the nine languages, and what a unit that answers it looks like: a price asks for an
 * amount of money, "how often" for an interval, "how heavy" for a weight, "how long" for a duration, "how many" for a
 * number, "when" for a date or time. The words that ask are looked for through their answer, not as words.
 */
const NUMBER_WORD =
  '\\d+(?:[,.]\\d+)?|ein\\p{L}{0,2}|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|\\p{L}+(?:zehn|zig|ßig|einhalb)|hundert|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\\p{L}+(?:teen|ty)|half';
const TIME_UNIT =
  '(?:sekunde|minute|stunde|tag|werktag|kalendertag|arbeitstag|woche|monat|jahr|second|minute|hour|day|week|month|year)\\p{L}*';
/** A duration: a number, in figures or words, of a unit of time ("4 Wochen", "zwei Jahre", "viereinhalb Stunden"). */
const DURATION = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${NUMBER_WORD})\\s+(?:\\p{L}+\\s+)?${TIME_UNIT}|tägig|wöchig|monatig|jährig|stündig|\\d\\s?(?:h|min|std)\\b|\\p{N}\\s?(?:дн|час|нед|мес|год|лет|рок|днів|годин|тиж)|\\p{N}\\s?(?:يوم|أيام|ساع|أسبوع|شهر|سن)`,
  'iu',
);

/**
 * An amount: a number, in figures or words, with its unit, currency or percent sign ("60 EUR", "0,75 bar", "50 %",
 * "zehn Stunden"), or a table cell of a figure alone (its unit in a column of its own); a clock time ("12:00 Uhr") or
 * a day of the month ("15.") is none.
 */
const AMOUNT = new RegExp(
  `(?<![\\p{L}\\p{N}.,:])(?:${NUMBER_WORD})(?![.,:]?\\d)(?!\\.)\\s?(?:%|‰|°|[€$£₽₴]|(?!uhr\\b|o'clock\\b)(?:\\p{L}{2,}|[mglt]\\b))|(?:^|\\|)\\s*\\d+(?:[.,]\\d+)?\\s*(?:\\||$)`,
  'iu',
);

/** "How much" in the interface languages, spoken Arabic's too. */
const HOW_MUCH = 'wie ?viel|how much|combien|quant[oa]|ile|сколько|скільки|كم|قديش|أديش';
/** Paying or earning ("zahlt", "pays", "платит", "płaci", "يدفع"): how much of it is an amount of money. */
const PAYS =
  '(?:be)?zahl(?:t|en|e|st)|verdien\\p{L}*|pay(?:s|e|ent|er|é\\p{L}*)?|paid|earns?|pai(?:e|ent)|gagn\\p{L}*|pag(?:a|am|ano|are|ar|ato|ata|ate|o|ou|amos|hi|hiamo)|guadagn\\p{L}*|ganh\\p{L}*|(?:za)?płac\\p{L}*|zarabia\\p{L}*|плат[ия]\\p{L}*|плач\\p{L}*|заплат\\p{L}*|зарабат\\p{L}*|заробля\\p{L}*|يدفع|تدفع|ندفع|يكسب';
/** A share asked for ("wie viel Prozent zahlt die Kasse"): no amount of money. */
const SHARE = /prozent|percent|pour ?cent|per ?cento|procent|por ?cento|процент|відсот|%|بالمئة/iu;

interface Cue {
  asks: RegExp;
  /**
   * Words that ask only together, anywhere in the question and in either order, unless the question holds `unless`
   * ("how much" with a verb of paying, unless a share is asked; "how long" with "Zeit"): all are then the words that
   * ask. (As one pattern, with look-behinds over the whole question, the first took a millisecond and a half per
   * question, most of the cues' time: bench:chat's profile.)
   */
  together?: { words: RegExp[]; unless?: RegExp };
  answer: RegExp;
  strong?: boolean;
  generic?: boolean;
}

const CUES: Array<Cue & { everyAsk: RegExp }> = (
  [
    {
      // A price, or how much someone pays or earns.
      asks: new RegExp(
        `${/\b(kost\p{L}*|preis\p{L}*|teuer|berechn\p{L}*|cost\p{L}*|price\p{L}*|prix|co[uû]t\p{L}*|prezz\p{L}*|koszt\p{L}*|cen[ayę]|custa\p{L}*|pre[cç]o\p{L}*)\b|сто(ит|имост\p{L}*)|цен\p{L}*|ціна|варт\p{L}*|кошту\p{L}*|سعر|تكلف\p{L}*|ثمن/iu.source}`,
        'iu',
      ),
      together: {
        words: [new RegExp(`\\b(?:${HOW_MUCH})\\b`, 'iu'), new RegExp(`\\b(?:${PAYS})\\b`, 'iu')],
        unless: SHARE,
      },
      answer:
        /\d\s?(€|eur\b|euro|\$|usd|£|chf|zł|pln|руб|₽|грн|₴)|(€|\$|£)\s?\d|\b(eur|euro|chf|usd)\s?\d|\b\d{1,3}(\.\d{3})*,\d{2}\b|دولار|يورو|جنيه/iu,
      strong: true,
    },
    {
      asks: /wie (oft|häufig)|in welchen abständen|how (often|frequently)|combien de fois|à quelle fréquence|ogni quanto|quanto spesso|jak często|com que frequência|quantas vezes|как часто|як часто|كم مرة/iu,
      answer:
        /\b(jährlich|halbjährlich|vierteljährlich|monatlich|wöchentlich|täglich|stündlich|\p{L}*intervall\p{L}*|alle \S+ (jahre|monate|wochen|tage|stunden)|einmal|zweimal|dreimal|pro (jahr|monat|woche|tag)|annual(ly)?|yearly|monthly|weekly|daily|hourly|every|interval|once|twice|per (year|month|week|day)|annuel\p{L}*|mensuel\p{L}*|hebdomadaire|quotidien\p{L}*|tous les|mensil\p{L}*|settimanal\p{L}*|ogni|rocznie|miesięcznie|tygodniowo|codziennie|anualmente|mensalmente|semanalmente|diariamente|cada)\b|ежегодно|ежемесячно|еженедельно|ежедневно|кажд\p{L}*|раз в|щороку|щомісяця|щотижня|щодня|кожн\p{L}*|سنوي\p{L}*|شهري\p{L}*|أسبوعي\p{L}*|يومي\p{L}*|كل /iu,
    },
    {
      asks: /wie schwer|gewicht|wiegt|how heavy|weigh\p{L}*|poids|pes[oa]|ile waży|waga|сколько весит|вес|скільки важить|وزن/iu,
      answer: /\d\s?(kg|g|t)\b|gewicht|weight|poids|peso|waga|вес|вага|وزن/iu,
      strong: true,
    },
    {
      // "How long" asks for a duration: a number of seconds to years, not any figure ("§ 11", "(2)").
      asks: /wie lange?\b|wie ?viel zeit|how much time|wie viele? (sekunden|minuten|stunden|tage|werktage|arbeitstage|wochen|monate|jahre)|how long|how many (seconds|minutes|hours|days|weeks|months|years)|combien de temps|pendant combien|quanto tempo|per quanto|jak długo|ile (dni|godzin|tygodni|miesięcy|lat)|как долго|сколько (времени|дней|часов|недель|месяцев|лет)|як довго|скільки (часу|днів|годин|тижнів|місяців|років)|كم من الوقت|كم يوم|كم ساعة|كم سنة|مدة/iu,
      // "Wie lange hat die Kammer Zeit": the time is what "how long" asks, no word of the topic.
      together: { words: [/\b(?:wie lange?|how long)\b/iu, /\b(?:zeit|time)\b/iu] },
      answer: DURATION,
      strong: true,
    },
    {
      // "How old", "from what age" asks for an age: a number of years, a year of life, coming of age.
      asks: /wie alt|(?:(?:ab|bis|mit) (?:zu )?)?welche[mns]? alter|how old|what age|which age|quel âge|che età|quanti anni|ile lat|w jakim wieku|od jakiego wieku|do jakiego wieku|que idade|quantos anos|сколько лет|в каком возрасте|с какого возраста|до какого возраста|скільки років|у якому віці|з якого віку|до якого віку|كم عمر|أي عمر|بأي عمر|أي سن|كم سن/iu,
      answer:
        /\d+\s*(?:jahre?n?|years?|ans|anni|lat|anos|лет|года?|рок\p{L}*|сты|سنة|سنوات|عام)|lebensjahr\p{L}*|volljähr\p{L}*|minderjähr\p{L}*|of age|adult/iu,
      strong: true,
    },
    {
      // "How much" (of a thing, not the price: that is the cue above) asks for an amount with its unit.
      asks: /wie ?viel\b|how much|ile\b|сколько|скільки|قديش|أديش/iu,
      answer: AMOUNT,
      strong: true,
      // Beside a price, a weight or a duration asked for ("wie viel kostet", "сколько весит"), that is what counts.
      generic: true,
    },
    {
      asks: /wie (lange?|viele?|hoch|groß|gross|weit|breit|tief|alt)|wieviele?|ab wie viel|how (many|much|long|high|big|far|wide|deep|old)|combien|quant[oiae]|\bile\b|quant[oa]s?|сколько|скільки|^كم|\bكم\b|قديش|أديش/iu,
      answer:
        /\p{N}|\b(ein|eine|einen|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|dreißig|hundert|one|two|three|four|five|six|seven|eight|nine|ten|twelve|half|halb|viertel)\b/iu,
    },
    {
      asks: /\b(wann|seit wann|bis wann|ab wann|in welchem jahr|when|what year|which year|quand|en quelle année|quando|in che anno|kiedy|w którym roku|em que ano)\b|когда|в каком году|коли|в якому році|متى|في أي عام/iu,
      answer:
        /\p{N}|\b(vor|nach|bis|ab|innerhalb|spätestens|frühestens|sofort|unverzüglich|jährlich|halbjährlich|monatlich|wöchentlich|täglich|morgens|mittags|abends|nachts|frühjahr|frühling|sommer|herbst|winter|montags?|dienstags?|mittwochs?|donnerstags?|freitags?|samstags?|sonntags?|januar|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember|before|after|until|within|immediately|annually|yearly|monthly|weekly|daily|spring|summer|autumn|fall|winter|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)\b/iu,
    },
  ] satisfies Cue[]
).map((c) => {
  const asks = unicodeWords(c.asks);
  // `everyAsk` and the words that ask together find each place that asks (matchAll clones them: shared safely).
  const globally = (re: RegExp) => new RegExp(re.source, `${re.flags}g`);
  const together = c.together && {
    words: c.together.words.map((w) => globally(unicodeWords(w))),
    unless: c.together.unless,
  };
  return { ...c, asks, together, everyAsk: globally(asks), answer: unicodeWords(c.answer) };
});

/** Whether a text asks what a cue asks for: by its words, or by the words that ask together. */
function asksFor(cue: (typeof CUES)[number], text: string): boolean {
  return cue.asks.test(text) || togetherIn(cue, text);
}

/** Whether a text holds one of each of a cue's words that ask together, and nothing that rules them out. */
function togetherIn(cue: (typeof CUES)[number], text: string): boolean {
  const together = cue.together;
  return (
    together !== undefined && !together.unless?.test(text) && together.words.every((w) => text.search(w) >= 0)
  );
}

/**
 * What a question (with the previous one, for a follow-up) asks for, and the words that ask it: the same for both
 * scorings of a question (evidence order, relevance check), and the cue patterns are slow to run.
 */
function cuesOf(
  question: string,
  context: string | undefined,
): { cues: typeof CUES; askingWords: Set<string> } {
  const key = `${question}\u0000${context ?? ''}`;
  let found = askedCues.get(key);
  if (found) return found;
  const cues = CUES.filter((c) => asksFor(c, question) || (context ? asksFor(c, context) : false));
  // The words that ask for an amount ("kostet", "wie lange") are looked for by their cue, not as words.
  const askingWords = new Set(
    cues.flatMap((c) =>
      [c.everyAsk, ...(togetherIn(c, question) ? c.together!.words : [])].flatMap((re) =>
        [...question.matchAll(re)].flatMap((m) => wordsOf(m[0])),
      ),
    ),
  );
  found = { cues, askingWords };
  if (askedCues.size >= ASKED_CUES_LIMIT) askedCues.clear();
  askedCues.set(key, found);
  return found;
}
const askedCues = new Map<string, { cues: typeof CUES; askingWords: Set<string> }>();
const ASKED_CUES_LIMIT = 1000;

/**
 * A text without the figures that only point somewhere: section signs with their numbers ("§§ 8, 15", "§ 4 Abs. 2"),
 * the numbers of paragraphs, sentences and list items ("(2)", "Satz 1", "3. "), articles and pages.
 */
export function withoutReferences(text: string): string {
  return text
    .replace(/§§?\s*\d+\p{L}?(?:\s*(?:,|und|bis|and|to|-|–)\s*\d+\p{L}?)*/gu, ' ')
    .replace(REFERENCE, ' ')
    .replace(/\(\d{1,3}\p{L}?\)/gu, ' ')
    .replace(/^\s*\d{1,3}\p{L}?\.\s/u, ' ');
}
/** A numbered reference by its word ("Abs. 2", "Satz 1", "page 4"): made once, not for every unit scored. */
const REFERENCE = unicodeWords(
  /\b(abs|absatz|absätze|nr|nummer|satz|sätze|buchstabe|art|artikel|anlage|anhang|kapitel|seite|s|para|section|sec|no|page|p)\.?\s*\d+\p{L}?(?:\s*(?:,|und|bis|and|to|-|–)\s*\d+\p{L}?)*/giu,
);

/**
 * A text without its phone numbers (a trunk or country prefix, then at least seven digits in groups: "0561 470 93-25",
 * "+49 561 47093"): they are no amount, count or time ("Wann hat das Lager offen?" is not answered by its number).
 */
function withoutPhoneNumbers(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}])(?:\+|0)\d(?:[ /-]?\d){6,}(?!\p{N})/gu, ' ');
}

/** The patterns of the given figures (those of figures alone) as words of their own, for `withoutFigures`. */
function figurePatterns(figures: Set<string>): RegExp[] {
  return [...figures]
    .filter((f) => /^\p{N}+$/u.test(f))
    .map((f) => new RegExp(`(?<![\\p{L}\\p{N}.,])${f}(?![\\p{N}]|[.,]\\p{N})`, 'gu'));
}

/** A text without the figures of `figurePatterns` as words of their own. */
function withoutFigures(text: string, patterns: RegExp[]): string {
  let out = text;
  for (const pattern of patterns) out = out.replace(pattern, ' ');
  return out;
}

type UnitKind = 'sentence' | 'row' | 'item';

interface Unit {
  hit: number;
  index: number;
  kind: UnitKind;
  /** Verbatim (a list item without its bullet). */
  text: string;
  /**
   * What is quoted for it: the text, or for a part of a sentence that the segmenter cut after an abbreviation or an
   * ordinal ("bis zum 31."), the whole sentence.
   */
  quote: string;
  /** The header row of the table a row belongs to, quoted with it. */
  header: string | null;
  /** The unit ends with ":" and introduces what follows (a list, a table). */
  intro: boolean;
  own: WordSet;
  /** The headings above it, and for a row the table's caption, header and section row. */
  context: WordSet;
  /** For a row, its table's column names and section row: they say what each of its cells is. */
  columns: WordSet;
  /** Its character n-gram vector, for its similarity to the question. */
  ngram: number[];
  /** The bounds it puts on quantities of time and age ("mehr als sechs bis zu neun Stunden"). */
  ranges: FigureRange[];
}

/** A table row as the chunker writes it: cells joined by " | ". */
const isRow = (line: string) => line.includes(' | ');
/** Digits, not the subscripts and superscripts of names and units ("CO₂", "m³"): a header row holds none. */
const hasFigures = (line: string) => /\p{Nd}/u.test(line);

const segmenters = new Map<Language, Intl.Segmenter>();

/** One sentence segmenter per language and process (making one costs more than segmenting a passage). */
function sentenceSegmenter(lang: Language): Intl.Segmenter {
  let segmenter = segmenters.get(lang);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(lang, { granularity: 'sentence' });
    segmenters.set(lang, segmenter);
  }
  return segmenter;
}

/** A hit's answer units (`readUnits`), as the `hitIndex`-th hit: read once while the passage is among the last read. */
function unitsOf(hit: SearchHit, hitIndex: number, lang: Language): Unit[] {
  const key = `${lang}\u0000${hit.headingPath.join('\u0001')}\u0000${hit.text}`;
  let units = passageUnits.get(key);
  if (units) passageUnits.delete(key);
  else units = readUnits(hit, lang);
  passageUnits.set(key, units);
  if (passageUnits.size > PASSAGE_UNITS_LIMIT) passageUnits.delete(passageUnits.keys().next().value!);
  return units.map((u) => ({ ...u, hit: hitIndex }));
}

/**
 * The units of the passages read last, by language, headings and text, least recently read first: a question's
 * passages are read twice (for the evidence order, then for whether any is relevant enough to ask the model), and
 * the passages a company's staff ask about again and again once per process.
 */
const passageUnits = new Map<string, Unit[]>();
const PASSAGE_UNITS_LIMIT = 1000;

/**
 * A passage's answer units: the chunker keeps a table as one line per row (after its caption and header) and a list
 * item as a line of its own ("• ", "1. "), so each row and each item is a unit of its own; other lines are cut into
 * sentences. A row's context is its table's caption, header row and section row; every unit's context includes the
 * passage's heading path.
 */
function readUnits(hit: Pick<SearchHit, 'text' | 'headingPath'>, lang: Language): Unit[] {
  const segmenter = sentenceSegmenter(lang);
  // Every sentence of a passage has its headings as context, and most units no columns: each text's words once.
  const sets = new Map<string, WordSet>();
  const setOf = (text: string) => {
    let set = sets.get(text);
    if (!set) {
      set = wordSet(text);
      sets.set(text, set);
    }
    return set;
  };
  const headings = hit.headingPath.join(' \n ');
  const out: Unit[] = [];
  const lines = hit.text
    .split(/\n+/)
    .map((l) => l.trim())
    .filter((l) => l.length >= 2);
  let header: string | null = null;
  /** Lines above the table's rows: its caption; and the section row the current row is under. */
  let caption: string[] = [];
  let section: string | null = null;
  let inTable = false;
  const push = (
    kind: UnitKind,
    text: string,
    head: string | null,
    context: string,
    columns = '',
    quote = text,
  ) => {
    out.push({
      hit: -1,
      index: out.length,
      kind,
      text,
      quote,
      header: head,
      intro: text.endsWith(':'),
      own: setOf(text),
      context: setOf(context),
      columns: setOf(columns),
      ngram: ngrams.embedOne(text),
      ranges: figureRanges(text),
    });
  };
  lines.forEach((line, i) => {
    if (isRow(line)) {
      if (!inTable) {
        // A table starts: its first row is its header when it holds no figures.
        header = hasFigures(line) ? null : line;
        inTable = true;
        section = null;
        if (line === header) return;
      }
      push(
        'row',
        line,
        header,
        [headings, ...caption, header ?? '', section ?? ''].join(' \n '),
        [header ?? '', section ?? ''].join(' \n '),
      );
      return;
    }
    const next = lines[i + 1];
    if (inTable && next !== undefined && isRow(next)) {
      // A line between rows is a section row ("Lohn und Fahrtkosten"): context for the rows under it.
      section = line;
      return;
    }
    if (!inTable && next !== undefined && isRow(next) && !hasFigures(next) && !line.endsWith('.')) {
      // A line right above a table's header is its caption.
      caption = [...caption, line];
      return;
    }
    inTable = false;
    header = null;
    caption = [];
    if (line.startsWith('• ') || NUMBERED.test(line)) {
      push('item', line.startsWith('• ') ? line.slice(2).trim() : line, null, headings);
      return;
    }
    for (const { text, sentence } of sentencesOf(line, segmenter))
      push('sentence', text, null, headings, '', sentence);
  });
  return out;
}

/**
 * Abbreviations a sentence segmenter takes for a sentence's end ("§ 4 Abs. 2", "gem. Nr. 3", "inkl. MwSt."): the
 * word before the full stop, folded to lower case.
 */
const ABBREVIATIONS = new Set(
  (
    'abs art nr ziff buchst bzw ca ggf gem vgl evtl inkl zzgl bzgl sog lt tel fa str dr prof hr abb tab kap anm ' +
    'pos approx vs mr mrs ms np tj ul pkt'
  ).split(' '),
);
const ABBREVIATION_END = /(?:^|[\s(])([\p{L}.]+)\.$/u;
/** A figure of up to three digits with a full stop: an ordinal or a date ("des 50. Lebensjahres", "bis 31. März"). */
const ORDINAL_END = /(?:^|[\s(])\d{1,3}\.$/u;

/**
 * A line's sentences as the segmenter cuts them, each with the whole sentence it belongs to: the segmenter also cuts
 * after an abbreviation, an initial ("z. B.") or an ordinal followed by a word, and before a word in lower case (no
 * sentence starts with one), so that a law's "Nach Vollendung des 50. Lebensjahres ..." comes as "Nach Vollendung
 * des 50." and the rest. The parts are scored as they are (docs/decisions/0086-whole-sentences.md); a quote is the
 * whole sentence.
 */
export function sentencesOf(
  line: string,
  segmenter: Intl.Segmenter,
): Array<{ text: string; sentence: string }> {
  const sentences: string[][] = [];
  /** Whether the previous part ended in an abbreviation or an initial, or in an ordinal. */
  let cut: 'abbreviation' | 'ordinal' | null = null;
  for (const { segment } of segmenter.segment(line)) {
    const part = segment.trim();
    if (part.length === 0) continue;
    const joins =
      cut === 'abbreviation' || /^\p{Ll}/u.test(part) || (cut === 'ordinal' && /^\p{L}/u.test(part));
    if (joins && sentences.length > 0) sentences[sentences.length - 1]!.push(part);
    else sentences.push([part]);
    const word = ABBREVIATION_END.exec(part)?.[1]?.toLowerCase();
    cut = ORDINAL_END.test(part)
      ? 'ordinal'
      : word !== undefined && (/^(?:\p{L}\.)*\p{L}$/u.test(word) || ABBREVIATIONS.has(word))
        ? 'abbreviation'
        : null;
  }
  return sentences.flatMap((parts) => {
    const sentence = parts.join(' ');
    return parts.filter((p) => p.length >= 2).map((text) => ({ text, sentence }));
  });
}

interface Scored extends Unit {
  /** The weighted share of the question's words the unit holds (in itself or its context). */
  coverage: number;
  score: number;
  /** The score it would have if it held the question's identifying figures (a rival about another model or size). */
  plain: number;
  /** The question words it holds well (in itself, match ≥ 0.7). */
  covers: Set<string>;
  /** Whether it holds the kind of answer the question asks for (a price, a duration...); null: no kind asked. */
  answers: boolean | null;
}

const ngrams = new BuiltinEmbedder(256);
function cosine(a: number[], b: number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * The figures and codes a question identifies its subject by, which a unit must hold to answer it: codes of letters
 * and figures ("F28", "M20"), sizes ("600x1000"), numbers of three or more digits, a number after a short name
 * ("Typ 33", "GB 30 C", "Zone 2") or before a unit of measure ("35 mm", "25 Liter"). Other small numbers in a question
 * are usually its circumstances ("mit 17", "7 Stunden") and are only weighed.
 */
export function identifyingFigures(question: string): string[] {
  const tokens = question.normalize('NFKC').match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? [];
  const out = new Set<string>();
  tokens.forEach((token, i) => {
    if (!/\p{N}/u.test(token)) return;
    const letters = /\p{L}/u.test(token);
    const size = sizeNumbers(token);
    if (size) {
      for (const n of size) out.add(n);
      return;
    }
    if (letters) {
      out.add(fold(token));
      return;
    }
    const before = tokens[i - 1] ?? '';
    const after = tokens[i + 1] ?? '';
    if (
      token.length >= 3 ||
      /^(\p{Lu}{1,3}|\p{Lu}\p{Ll}{1,4})$/u.test(before) ||
      (/^\p{Ll}{3,5}$/u.test(before) && !isFunctionWord(fold(before))) ||
      /^(mm|cm|m|km|l|liter|litre|kg|g|t|kw|w|v|bar|mbar|nm|zoll|qm|m2|m3|°c)$/iu.test(after)
    )
      out.add(token);
  });
  return [...out];
}

/** The two numbers of a size ("600x1000"), or null. */
function sizeNumbers(word: string): string[] | null {
  const size = /^(\d+)[x×](\d+)$/iu.exec(word);
  return size ? [size[1]!, size[2]!] : null;
}

/**
 * Scores every unit of the hits: mostly the weighted share of the question's words it holds (in itself, or less in
 * the headings and column names above it; rare words of the retrieved text weigh more, identifying figures most),
 * then whether it holds the kind of answer the question asks for, and its character n-gram similarity to the
 * question. A unit that lacks one of the question's identifying figures or codes (`identifyingFigures`) scores 0: a
 * row about the Typ 22 does not answer a question about the Typ 33.
 */
export function scoreUnits(
  question: string,
  hits: SearchHit[],
  lang: Language,
  context?: string,
  translations: QueryTranslation[] = [],
  rarity: Map<string, number> = new Map(),
): Scored[] {
  const units = hits.flatMap((h, i) => unitsOf(h, i, lang));
  if (units.length === 0) return [];
  const { cues, askingWords } = cuesOf(question, context);
  const asking = (w: string) => askingWords.has(fold(w));
  const required = new Set(identifyingFigures(question));
  // A size is asked by its numbers, as the documents write it in many ways ("600x1000", "600 x 1000 mm").
  const own = contentStems(question).flatMap((w) => sizeNumbers(w) ?? [w]);
  const main = [...new Set(own.some((w) => !asking(w)) ? own.filter((w) => !asking(w)) : own)].map(askedWord);
  const mainWords = new Set(main.map((w) => w.word));
  const extra = context
    ? [...new Set(contentStems(context))].filter((w) => !mainWords.has(fold(w))).map(askedWord)
    : [];
  // Each question word is a group of the words that stand for it: itself, or, when the question was translated into
  // the documents' language, its translations (the best-matching one counts, by its weight).
  const groups = askedGroups(main, translations, asking);
  // How well each unit holds a group, whether it holds one of its words well in itself (`strong`) or in itself, its
  // headings or its column names (`named`): worked out once per group and unit (the rarity below and the score both
  // ask; matching was most of the scoring's time).
  const unitNumber = new Map(units.map((u, i) => [u, i]));
  // A figure the question names with its unit ("7 Stunden") is held by a unit that bounds that quantity by a range
  // holding it, and not by one whose only mention of it is a bound that excludes it (figure-ranges.ts).
  const quantities = askedQuantities(question);
  const stated = [...quantities.values()];
  const matches = new Map<AskedGroup, { holds: Float64Array; strong: Uint8Array; named: Uint8Array }>();
  const matchesOf = (g: AskedGroup) => {
    let m = matches.get(g);
    if (!m) {
      m = {
        holds: new Float64Array(units.length),
        strong: new Uint8Array(units.length),
        named: new Uint8Array(units.length),
      };
      // The units of a passage share their headings' (and a table's rows their columns') word set: matched once.
      const shared = g.alternatives.map(() => new Map<WordSet, number>());
      const matchShared = (k: number, word: AskedWord, set: WordSet) => {
        let found = shared[k]!.get(set);
        if (found === undefined) {
          found = matchWord(word, set);
          shared[k]!.set(set, found);
        }
        return found;
      };
      for (let i = 0; i < units.length; i++) {
        const u = units[i]!;
        let best = Number.NEGATIVE_INFINITY;
        for (let k = 0; k < g.alternatives.length; k++) {
          const a = g.alternatives[k]!;
          const own = matchWord(a.word, u.own);
          const context = matchShared(k, a.word, u.context);
          const columns = matchShared(k, a.word, u.columns);
          if (own >= STRONG_MATCH) m.strong[i] = 1;
          if (own >= STRONG_MATCH || context >= STRONG_MATCH || columns >= STRONG_MATCH) m.named[i] = 1;
          const held = Math.max(own, CONTEXT_MATCH * context, COLUMN_MATCH * columns);
          best = Math.max(best, a.weight * held);
        }
        const quantity = quantities.get(g.key);
        const bounds = quantity ? u.ranges.filter((r) => r.unit === quantity.unit) : [];
        if (quantity && bounds.length > 0) {
          const within = bounds.some((r) => holdsQuantity(r, quantity));
          best = within ? 1 : 0;
          m.strong[i] = within ? 1 : 0;
          m.named[i] = within ? 1 : 0;
        }
        m.holds[i] = best;
      }
      matches.set(g, m);
    }
    return m;
  };
  const holds = (g: AskedGroup, u: Unit) => matchesOf(g).holds[unitNumber.get(u)!]!;
  // How rare a word is in the company's passages, when they are counted and the question is asked in its own words:
  // the retrieved text holds the question's words more often than the company does (that is why it was retrieved).
  const byIndex = rarity.size > 0 && translations.length === 0;
  const idf = (g: AskedGroup) => {
    // A unit holds the word when it holds it well: a compound's part found everywhere ("Prüfung" of
    // "Prüfungsgebühr") does not make the compound common.
    const df = units.reduce((n, u) => n + (holds(g, u) >= STRONG_MATCH ? 1 : 0), 0);
    const local = Math.log(1 + units.length / (0.5 + df));
    if (!byIndex) return local;
    // A word the counts do not know is a stop word of the index's language: as common as can be.
    return INDEX_RARITY * Math.log(1 + 1 / (rarity.get(g.key) ?? 1)) + (1 - INDEX_RARITY) * local;
  };
  const weights = new Map<AskedGroup, number>();
  for (const g of groups) weights.set(g, idf(g) * (required.has(g.key) ? SPECIFIC_WEIGHT : 1));
  // A question word that no retrieved unit holds at all, in itself or above it, and that the asker wrote in lower case
  // (a verb, an adverb, a colloquial word: "krieg", "zahlen"; a German noun or a name is capitalised; a translated
  // word and a word of a script without capitals count as lower case) is how the asker put it rather than what the
  // documents are about: it weighs less, once another word of the question is held well.
  const held = (g: AskedGroup) => units.some((u) => holds(g, u) >= UNHELD);
  const capitalised = new Set((question.match(/(?<=\S\s+)\p{Lu}\p{L}+/gu) ?? []).map(fold));
  if (groups.some((g) => units.some((u) => holds(g, u) >= STRONG_MATCH)))
    for (const g of groups)
      if (!required.has(g.key) && !capitalised.has(g.key) && !held(g))
        weights.set(g, weights.get(g)! * UNHELD_WEIGHT);
  for (const w of extra) {
    const g = single(w);
    weights.set(g, idf(g) / 2);
  }
  // What the question asks for counts like one of its words: fully for a price or a weight ("wie schwer" is answered
  // by "Gewicht | 36,5 kg"), half for a number or a date, which many units hold.
  const mean =
    groups.length > 0 ? groups.reduce((sum, g) => sum + (weights.get(g) ?? 0), 0) / groups.length : 1;
  const strong = cues.some((c) => c.strong);
  const specific = cues.filter((c) => c.strong && !c.generic);
  const answering = specific.length > 0 ? specific : strong ? cues.filter((c) => c.strong) : cues;
  const cueWeight = cues.length === 0 ? 0 : mean * (strong ? 1 : 0.5);
  const total = groups.reduce((sum, g) => sum + (weights.get(g) ?? 0), 0) + cueWeight || 1;
  const asked = ngrams.embedOne([question, ...translations.map(translationText)].join(' '));
  const topScore = Math.max(...hits.map((h) => h.score), 0) || 1;
  const figureWords = figurePatterns(required);
  return units.map((unit) => {
    // A paragraph, list or section number is no amount, date or duration: "(2) ... nach § 11" answers no "how many".
    // Nor is a figure the question names itself ("wiegt der GB 30 C": "30 C" is no weight).
    // Nor is a bound that holds a figure the question states ("mehr als sechs Stunden" for "7 Stunden"): it is the
    // case the question describes, not what it asks.
    const circumstances =
      stated.length === 0 ? [] : unit.ranges.filter((r) => stated.some((q) => holdsQuantity(r, q)));
    const answerable = withoutPhoneNumbers(
      withoutFigures(
        withoutReferences(circumstances.reduce((text, r) => text.replace(r.text, ' '), unit.text)),
        figureWords,
      ),
    );
    let found = 0;
    const covers = new Set<string>();
    // A row keyed by the code the question asks about ("F28 | Keine Flammenbildung ...") defines it: the question's
    // other words ("Display zeigt F28, was ist das?") are about the code, and the row answers them in its columns.
    const keyedRow = unit.kind === 'row' && required.has(fold(unit.text.split(' | ')[0]!.trim()));
    let named = 0;
    for (const [g, weight] of weights) {
      found += weight * (keyedRow ? Math.max(CONTEXT_MATCH, holds(g, unit)) : holds(g, unit));
      const i = unitNumber.get(unit)!;
      if (matchesOf(g).strong[i]) covers.add(g.key);
      // Named: the word itself, inflected or its compound's parts, here or in the headings and column names above;
      // the head of a compound alone ("-stunde" of "Elektrikerstunde" in "Monteurstunde") names another thing.
      if (keyedRow || matchesOf(g).named[i]) named += weight;
    }
    // A price or a weight is what a question asks for when it asks for one ("сколько весит": a weight, not any number).
    const cue = cues.length === 0 ? null : answering.some((c) => c.answer.test(answerable)) ? 1 : 0;
    // The kind of answer counts once the unit names half of what the question names: any price is no answer to
    // the price of something the documents do not list.
    const coverage = Math.min(
      1,
      (found + (named >= (total - cueWeight) / 2 ? (cue ?? 0) * cueWeight : 0)) / total,
    );
    const figures = new Set([...unit.own.words, ...unit.context.words]);
    const complete = [...required].every((f) => figures.has(f));
    const similarity = Math.max(0, cosine(asked, unit.ngram));
    // A price or a weight asked for and not in the unit: it is no answer, however many of the words it holds.
    const lexical =
      (cue === null ? coverage : (1 - CUE_SHARE) * coverage + CUE_SHARE * cue) *
      (cue === 0 && strong ? MISSING_STRONG_CUE : 1);
    // The search's own judgement of the passage, and a preference for a short unit that says it in few words.
    const prior = PASSAGE_PRIOR * Math.max(0, hits[unit.hit]!.score / topScore);
    const concise = CONCISE * (1 - Math.min(1, unit.own.words.size / LONG_UNIT));
    // A row keyed by the code the question asks about ("F28 | Keine Flammenbildung ...") defines it.
    const keyed = keyedRow ? KEYED_ROW : 0;
    const plain = (1 - NGRAM_SHARE) * lexical + NGRAM_SHARE * similarity + prior + concise + keyed;
    return {
      ...unit,
      coverage,
      score: complete ? plain : 0,
      plain,
      covers,
      answers: cue === null ? null : cue === 1,
    };
  });
}

interface AskedGroup {
  key: string;
  alternatives: Array<{ word: AskedWord; weight: number }>;
}

const single = (word: AskedWord): AskedGroup => ({ key: word.word, alternatives: [{ word, weight: 1 }] });

/**
 * The question's words as groups: a translated word by its translations' content words (a phrase like "Platz
 * brauchen" stands for the word by each of its words), every other word (a code, a name, a German term in a foreign
 * question) by itself, unless a model translated the whole question.
 */
function askedGroups(
  main: AskedWord[],
  translations: QueryTranslation[],
  asking: (word: string) => boolean,
): AskedGroup[] {
  const translated = new Set<string>();
  const groups: AskedGroup[] = [];
  for (const t of translations) {
    for (const w of t.words) {
      for (const part of wordsOf(w.word)) translated.add(part);
      // A word that asks for an amount ("price", "сколько") is looked for by its cue, as in the question's own words.
      if (wordsOf(w.word).every(asking)) continue;
      // Relative to the word's best translation: a translation found in a quote covers the word fully (its weight
      // below the question's own words is for ranking passages, not for judging a quote).
      const best = Math.max(...w.alternatives.map((a) => a.weight), Number.MIN_VALUE);
      const alternatives = w.alternatives.flatMap((a) =>
        contentStems(a.text).map((word) => ({ word: askedWord(word), weight: a.weight / best })),
      );
      if (alternatives.length > 0) groups.push({ key: `${t.target}:${w.word}`, alternatives });
    }
  }
  // A model translates the whole question, names and codes included: its words stand for all of the question's.
  if (translations.some((t) => t.via === 'model') && groups.length > 0) return groups;
  for (const w of main) if (!translated.has(w.word)) groups.push(single(w));
  return groups;
}

/** A unit that says what another says: all of its figures and nearly all of its words are the other's. */
const REPEATS = 0.8;
function repeats(unit: Unit, other: Unit): boolean {
  const words = wordsOf(withoutReferences(unit.text)).filter((w) => !isFunctionWord(w));
  const held = words.filter((w) => other.own.words.has(w));
  return (
    words.length > 0 &&
    held.length >= REPEATS * words.length &&
    words.every((w) => !/\p{N}/u.test(w) || other.own.words.has(w))
  );
}

export function answerExtractively(
  question: string,
  hits: SearchHit[],
  lang: Language,
  options: AnswerOptions = {},
): ExtractiveAnswer {
  const scored = scoreUnits(question, hits, lang, options.context, options.translations, options.rarity);
  const ranked = [...scored].sort((a, b) => b.score - a.score || a.hit - b.hit || a.index - b.index);
  const best = ranked[0];
  // A rival is any other passage's best unit, one about another model or size included ("GB 30 C" for "GB 20 C").
  // ...unless it repeats the best unit: the same words and figures in another passage agree with it, not rival it.
  const rival = best
    ? Math.max(0, ...scored.filter((s) => s.hit !== best.hit && !repeats(s, best)).map((s) => s.plain))
    : 0;
  const confidence = best ? best.score + DISTINCT_WEIGHT * Math.min(DISTINCT_CAP, best.score - rival) : 0;
  if (!best || confidence < (options.minConfidence ?? MIN_CONFIDENCE)) {
    return { text: translate(lang, 'answer.noAnswer'), cited: [], noAnswer: true, confidence };
  }
  const chosen: Scored[] = [best];
  let chars = best.quote.length;
  const sameHit = (s: Scored, index: number) => s.hit === best.hit && s.index === index;
  if (best.intro) {
    // A line that introduces a list or table ("So beantragst du Urlaub:") brings what it introduces.
    for (let i = best.index + 1; ; i++) {
      const next = scored.find((s) => sameHit(s, i));
      if (!next || next.kind === 'sentence' || chars + next.quote.length > MAX_CHARS) break;
      chosen.push(next);
      chars += next.quote.length;
    }
  } else if (best.kind === 'sentence' && best.quote.length < SHORT_SENTENCE) {
    // The next sentence: past the other parts of the best one's.
    let after = best.index + 1;
    while (scored.find((s) => sameHit(s, after))?.quote === best.quote) after++;
    const next = scored.find((s) => sameHit(s, after));
    if (next?.kind === 'sentence') {
      chosen.push(next);
      chars += next.quote.length;
    }
  }
  const covered = new Set(best.covers);
  for (const s of ranked.slice(1)) {
    if (chosen.length >= MAX_UNITS || s.score < best.score * NEAR_BEST) break;
    if (chosen.includes(s) || chars + s.quote.length > MAX_CHARS) continue;
    if (chosen.some((c) => c.quote === s.quote)) continue;
    // Beside a quote that holds the price or duration asked for, a unit without one adds nothing.
    if (best.answers === true && s.answers === false) continue;
    // Only what adds to the answer: words the quotes so far miss, or an equally good second row or sentence.
    const adds = [...s.covers].some((w) => !covered.has(w));
    if (!adds && s.score < best.score * TIE) continue;
    chosen.push(s);
    chars += s.quote.length;
    for (const w of s.covers) covered.add(w);
  }
  // Quote passage by passage, in the order they were first chosen, each passage's units in their own order.
  const passageOrder = [...new Set(chosen.map((s) => s.hit))];
  const cited = passageOrder.map((i) => hits[i]!);
  const quotes = passageOrder.map((hit, n) => {
    const own = chosen.filter((s) => s.hit === hit).sort((a, b) => a.index - b.index);
    const lines = own.some((s) => s.kind !== 'sentence');
    const header = own.find((s) => s.header)?.header;
    // Two parts of one sentence are quoted once, as the sentence.
    const body = own
      .filter((s, i) => own.findIndex((o) => o.quote === s.quote) === i)
      .map((s) => (s.kind === 'item' && !NUMBERED.test(s.quote) ? `• ${s.quote}` : s.quote));
    return `${header ? `${header}\n` : ''}${body.join(lines ? '\n' : ' ')} [${n + 1}]`;
  });
  const intro = translate(lang, options.audience === 'visitor' ? 'answer.introPublic' : 'answer.intro');
  return {
    text: `${intro}\n\n${quotes.join('\n\n')}`,
    cited,
    noAnswer: false,
    confidence,
  };
}
