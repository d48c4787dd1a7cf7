import type { Language, SearchHit } from '@werkwissen/shared';
import { translate } from '../../i18n/translator.ts';
import { BuiltinEmbedder } from '../embedding/builtin-embedder.ts';
import { STOPWORDS } from '../embedding/stopwords.ts';
import { type QueryTranslation, translationText } from '../search/query-translation/translation.ts';

/**
 * The answerer of the embedded default, with no model and no network: it quotes, verbatim, the sentence, table row
 * or list item of the retrieved passages that best answers the question, cites its passage (which opens the whole
 * passage), and says plainly when nothing in the passages is close enough to the question.
 */

/**
 * Below this confidence (the best unit's score: the idf-weighted share of the question it covers, plus the
 * answer-type and character n-gram evidence) the answerer says it does not know. Chosen with `bench:answer`'s
 * threshold sweep over the answerable and the "no answer" class (docs/ARCHITECTURE.md, Decisions).
 */
export const MIN_CONFIDENCE = 0.4;
/** A further unit is quoted when it scores nearly as well as the best one and covers words the best one misses. */
const NEAR_BEST = 0.75;
/** ...or when it ties with the best one (a second row of the same kind). */
const TIE = 0.95;
const MAX_UNITS = 3;
const MAX_CHARS = 700;
/** A best sentence shorter than this brings the next sentence of its passage along, for context. */
const SHORT_SENTENCE = 80;
/** Part of a word's weight that a compound part earns ("Stunde" in "Arbeitsstunde"), and a shared compound head. */
const PART_MATCH = 0.8;
const HEAD_MATCH = 0.5;
/** The weight of the answer-type evidence and of the character n-gram similarity in a unit's score. */
const CUE_SHARE = 0.25;
const NGRAM_SHARE = 0.15;

export interface ExtractiveAnswer {
  text: string;
  /** The cited passages, `[n]` in the text pointing to `hits[n-1]` of this list. */
  cited: SearchHit[];
  noAnswer: boolean;
  /** The best unit's score; 0 without passages. */
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
}

const fold = (word: string) =>
  word
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/^(ال|وال|بال|لل)(?=\p{L}{3})/u, '');

/**
 * A crude stem that survives most inflection in the nine languages: the folded word's first five letters
 * ("Brenner"/"Brenners", "question"/"questions"); shorter words stay whole.
 */
const stem = (word: string) => word.slice(0, 5);

/**
 * Words that only ask (how often, how many): they say what kind of answer is wanted, which the answer-type cues
 * below look for, and are not searched for as words.
 */
const QUESTION_WORDS = new Set(
  (
    'oft häufig viele viel wann warum wieso weshalb welchem often frequently many much long ' +
    'combien souvent quand pourquoi quanto quanti quante spesso perché ile często kiedy dlaczego ' +
    'quantos quantas frequência porque сколько часто когда почему скільки коли чому كم مرة لماذا ' +
    // Auxiliaries and fillers of questions ("Wie oft muss der Brenner gewartet werden?").
    'muss müssen werden wurde wurden worden können soll sollen sollte darf gibt man mein meine unser unsere ' +
    'does should must need'
  ).split(' '),
);

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

const contentWords = (text: string) => {
  const all = words(text);
  const content = all.filter(
    (w) => !STOPWORDS.has(w) && !QUESTION_WORDS.has(w) && (w.length > 1 || /\d/.test(w)),
  );
  return (content.length > 0 ? content : all).map(fold);
};

/** The content words of a text as stems (stopwords and question words dropped; numbers kept). */
export function contentStems(text: string): string[] {
  return contentWords(text).map(stem);
}

/**
 * A German word without its inflection ending and participle prefix, for comparing compound parts ("Stunden" →
 * "stund", "gewartet" → "wart").
 */
const core = (word: string) => word.replace(/^ge(?=\p{L}{5})/u, '').replace(/(en|er|es|em|et|e|n|s|t)$/u, '');

/**
 * How well a question word is matched by a unit's words: its stem (1), or, in German, as a part of a compound
 * ("Stunde" in "Monteurstunde", "Monteur" in "Monteurstunde"; PART_MATCH) or a shared compound head
 * ("Monteurstunde" and "Arbeitsstunde"; HEAD_MATCH).
 */
function wordMatch(word: string, unit: Unit, german: boolean): number {
  if (unit.stems.has(stem(word))) return 1;
  if (!german || word.length < 4) return 0;
  const a = core(word);
  let best = 0;
  for (const other of unit.words) {
    if (other.length < 4) continue;
    const b = core(other);
    const [short, long] = a.length <= b.length ? [a, b] : [b, a];
    // A head ("stund" in "arbeitsstund") may be short; a first part must be longer ("Bremen" is no "Bremsbelag").
    const part =
      long.length > short.length &&
      (long.endsWith(short) ? short.length >= 4 : long.startsWith(short) && short.length >= 5);
    if (part) {
      return PART_MATCH;
    }
    let shared = 0;
    while (shared < short.length && a[a.length - 1 - shared] === b[b.length - 1 - shared]) shared++;
    if (shared >= 5 && a.length - shared >= 3 && b.length - shared >= 3) best = HEAD_MATCH;
  }
  return best;
}

/**
 * What a question asks for, in the nine languages, and what a unit that answers it looks like: a price asks for an
 * amount of money, "how often" for an interval ("wie oft" meets "jährlich", "Intervall"), "how many" for a number,
 * "when" for a date.
 */
const UNICODE_BOUNDARY = '(?:(?<![\\p{L}\\p{N}])(?=[\\p{L}\\p{N}])|(?<=[\\p{L}\\p{N}])(?![\\p{L}\\p{N}]))';
/** `\b` of a JavaScript pattern only knows ASCII letters ("coût", "cenę"): a word boundary for every script. */
const unicodeWords = (re: RegExp) => new RegExp(re.source.replaceAll('\\b', UNICODE_BOUNDARY), re.flags);

const CUES: Array<{ asks: RegExp; answer: RegExp }> = [
  {
    asks: /\b(kost\p{L}*|preis\p{L}*|teuer|cost\p{L}*|price\p{L}*|prix|co[uû]t\p{L}*|prezz\p{L}*|koszt\p{L}*|cen[ayę]|custa\p{L}*|pre[cç]o\p{L}*)\b|сто(ит|имост\p{L}*)|цен\p{L}*|ціна|варт\p{L}*|кошту\p{L}*|سعر|تكلف\p{L}*|ثمن/iu,
    answer:
      /\d\s?(€|eur\b|euro|\$|usd|£|chf|zł|pln|руб|₽|грн|₴)|(€|\$|£)\s?\d|\b(eur|euro|chf|usd)\s?\d|دولار|يورو|جنيه/iu,
  },
  {
    asks: /wie (oft|häufig)|in welchen abständen|how (often|frequently)|combien de fois|à quelle fréquence|ogni quanto|quanto spesso|jak często|com que frequência|quantas vezes|как часто|як часто|كم مرة/iu,
    answer:
      /\b(jährlich|halbjährlich|vierteljährlich|monatlich|wöchentlich|täglich|stündlich|\p{L}*intervall\p{L}*|alle \S+ (jahre|monate|wochen|tage|stunden)|einmal|zweimal|pro (jahr|monat|woche|tag)|annual(ly)?|yearly|monthly|weekly|daily|hourly|every|interval|once|twice|per (year|month|week|day)|annuel\p{L}*|mensuel\p{L}*|hebdomadaire|quotidien\p{L}*|tous les|annual\p{L}*|mensil\p{L}*|settimanal\p{L}*|ogni|rocznie|miesięcznie|tygodniowo|codziennie|co \S+ (lat|miesi\p{L}*|tygodni\p{L}*|dni)|anualmente|mensalmente|semanalmente|diariamente|cada)\b|ежегодно|ежемесячно|еженедельно|ежедневно|кажд\p{L}*|раз в|щороку|щомісяця|щотижня|щодня|кожн\p{L}*|سنوي\p{L}*|شهري\p{L}*|أسبوعي\p{L}*|يومي\p{L}*|كل /iu,
  },
  {
    asks: /wie viele?|wie lange?|wie hoch|how (many|much|long|high|old)|combien|quant[oiae]|\bile\b|quant[oa]s?|сколько|скільки|^كم|\bكم\b/iu,
    answer: /\p{N}/u,
  },
  {
    asks: /\b(wann|seit wann|in welchem jahr|when|what year|which year|quand|en quelle année|quando|in che anno|kiedy|w którym roku|em que ano)\b|когда|в каком году|коли|в якому році|متى|في أي عام/iu,
    answer: /\b(1\d{3}|20\d{2})\b|\d{1,2}\.\s?\d{1,2}\.|\d{1,2}:\d{2}/u,
  },
].map((c) => ({ asks: unicodeWords(c.asks), answer: unicodeWords(c.answer) }));

type UnitKind = 'sentence' | 'row' | 'item';

interface Unit {
  hit: number;
  index: number;
  kind: UnitKind;
  /** Verbatim, as quoted (a list item without its bullet). */
  text: string;
  /** The header row of the table a row belongs to, quoted with it. */
  header: string | null;
  words: string[];
  stems: Set<string>;
}

/** A table row as the chunker writes it: cells joined by " | ". */
const isRow = (line: string) => line.includes(' | ');

/**
 * A passage's answer units: the chunker keeps a table as one line per row and a list item as a line starting with
 * "• ", so each row and each item is a unit of its own; other lines are cut into sentences.
 */
function unitsOf(text: string, hit: number, lang: Language): Unit[] {
  const segmenter = new Intl.Segmenter(lang, { granularity: 'sentence' });
  const out: Unit[] = [];
  const push = (kind: UnitKind, unitText: string, header: string | null) => {
    const w = contentWords(unitText);
    out.push({ hit, index: out.length, kind, text: unitText, header, words: w, stems: new Set(w.map(stem)) });
  };
  let header: string | null = null;
  let previousWasRow = false;
  for (const raw of text.split(/\n+/)) {
    const line = raw.trim();
    if (line.length < 2) continue;
    if (isRow(line)) {
      // The first row of a table is its header when it holds no figures.
      if (!previousWasRow) header = /\d/.test(line) ? null : line;
      previousWasRow = true;
      push('row', line, line === header ? null : header);
      continue;
    }
    previousWasRow = false;
    if (line.startsWith('• ')) {
      push('item', line.slice(2).trim(), null);
      continue;
    }
    for (const { segment } of segmenter.segment(line)) {
      const sentence = segment.trim();
      if (sentence.length >= 2) push('sentence', sentence, null);
    }
  }
  return out;
}

interface Scored extends Unit {
  /** The idf-weighted share of the question's words the unit covers (compound parts in part). */
  coverage: number;
  score: number;
  /** The question words it covers (match ≥ HEAD_MATCH). */
  covers: Set<string>;
}

const ngrams = new BuiltinEmbedder(256);
const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

/**
 * Scores every unit of the hits: mostly the idf-weighted share of the question's words it contains (German
 * compounds matched by their parts), then whether it holds the kind of answer the question asks for (an amount, an
 * interval, a number, a date), and the character n-gram similarity of unit and question (inflections and
 * paraphrases sharing word parts).
 */
export function scoreUnits(
  question: string,
  hits: SearchHit[],
  lang: Language,
  context?: string,
  translations: QueryTranslation[] = [],
): Scored[] {
  const units = hits.flatMap((h, i) => unitsOf(h.text, i, lang));
  if (units.length === 0) return [];
  // Compound parts are matched in German passages: a German question's, or a question translated into German.
  const german = lang === 'de' || translations.some((t) => t.target === 'deu');
  const cues = CUES.filter((c) => c.asks.test(question) || (context ? c.asks.test(context) : false));
  // A word that asks for an amount ("kostet") is looked for by its cue, not as a word.
  const asking = (w: string) => cues.some((c) => c.asks.test(w));
  const questionWords = contentWords(question);
  const main = [
    ...new Set(
      questionWords.some((w) => !asking(w)) ? questionWords.filter((w) => !asking(w)) : questionWords,
    ),
  ];
  const mainStems = new Set(main.map(stem));
  const extra = context ? [...new Set(contentWords(context))].filter((w) => !mainStems.has(stem(w))) : [];
  // Each question word is a group of the words that stand for it: itself, or, when the question was translated,
  // its translations (the best-matching one counts, by its weight).
  const groups = questionGroups(main, translations);
  const groupMatch = (g: WordGroup, unit: Unit) =>
    Math.max(...g.alternatives.map((a) => a.weight * wordMatch(a.word, unit, german)));
  const idf = (g: WordGroup) => {
    const df = units.reduce((n, u) => n + (groupMatch(g, u) > 0 ? 1 : 0), 0);
    return Math.log(1 + units.length / Math.max(1, df));
  };
  const weights = new Map<WordGroup, number>();
  for (const g of groups) weights.set(g, idf(g));
  for (const w of extra) {
    const g = { key: w, alternatives: [{ word: w, weight: 1 }] };
    weights.set(g, idf(g) / 2);
  }
  const total = groups.reduce((sum, g) => sum + (weights.get(g) ?? 0), 0) || 1;
  const asked = ngrams.embedOne([question, ...translations.map(translationText)].join(' '));
  return units.map((unit) => {
    let found = 0;
    const covers = new Set<string>();
    for (const [g, weight] of weights) {
      const m = groupMatch(g, unit);
      found += weight * m;
      if (m >= HEAD_MATCH) covers.add(g.key);
    }
    const coverage = Math.min(1, found / total);
    const cue = cues.length === 0 ? null : cues.some((c) => c.answer.test(unit.text)) ? 1 : 0;
    const similarity = Math.max(0, cosine(asked, ngrams.embedOne(unit.text)));
    const lexical = cue === null ? coverage : (1 - CUE_SHARE) * coverage + CUE_SHARE * cue;
    // A slight preference for the better-ranked passage breaks near-ties.
    const prior = 0.02 * (1 - unit.hit / hits.length);
    const score = (1 - NGRAM_SHARE) * lexical + NGRAM_SHARE * similarity + prior;
    return { ...unit, coverage, score, covers };
  });
}

interface WordGroup {
  key: string;
  alternatives: Array<{ word: string; weight: number }>;
}

/**
 * The question's content words as groups: a translated word by its translations' content words (a phrase like
 * "Platz brauchen" stands for the word by each of its words), every other word (a code, a name, a German term in a
 * foreign question) by itself.
 */
function questionGroups(main: string[], translations: QueryTranslation[]): WordGroup[] {
  const translated = new Set<string>();
  const groups: WordGroup[] = [];
  for (const t of translations) {
    for (const w of t.words) {
      for (const part of contentWords(w.word)) translated.add(part);
      const alternatives = w.alternatives.flatMap((a) =>
        contentWords(a.text).map((word) => ({ word, weight: a.weight })),
      );
      if (alternatives.length > 0) groups.push({ key: `${t.target}:${w.word}`, alternatives });
    }
  }
  for (const w of main)
    if (!translated.has(w)) groups.push({ key: w, alternatives: [{ word: w, weight: 1 }] });
  return groups;
}

export function answerExtractively(
  question: string,
  hits: SearchHit[],
  lang: Language,
  options: AnswerOptions = {},
): ExtractiveAnswer {
  const scored = scoreUnits(question, hits, lang, options.context, options.translations);
  const ranked = [...scored].sort((a, b) => b.score - a.score || a.hit - b.hit || a.index - b.index);
  const best = ranked[0];
  const confidence = best?.score ?? 0;
  if (!best || confidence < (options.minConfidence ?? MIN_CONFIDENCE)) {
    return { text: translate(lang, 'answer.noAnswer'), cited: [], noAnswer: true, confidence };
  }
  const chosen: Scored[] = [best];
  let chars = best.text.length;
  if (best.kind === 'sentence' && best.text.length < SHORT_SENTENCE) {
    const next = scored.find((s) => s.hit === best.hit && s.index === best.index + 1);
    if (next?.kind === 'sentence') {
      chosen.push(next);
      chars += next.text.length;
    }
  }
  const covered = new Set(best.covers);
  for (const s of ranked.slice(1)) {
    if (chosen.length >= MAX_UNITS || s.score < best.score * NEAR_BEST) break;
    if (chosen.includes(s) || chars + s.text.length > MAX_CHARS) continue;
    if (chosen.some((c) => c.text === s.text)) continue;
    // Only what adds to the answer: words the quotes so far miss, or an equally good second row or sentence.
    const adds = [...s.covers].some((w) => !covered.has(w));
    if (!adds && s.score < best.score * TIE) continue;
    chosen.push(s);
    chars += s.text.length;
    for (const w of s.covers) covered.add(w);
  }
  // Quote passage by passage, in the order they were first chosen, each passage's units in their own order.
  const passageOrder = [...new Set(chosen.map((s) => s.hit))];
  const cited = passageOrder.map((i) => hits[i]!);
  const quotes = passageOrder.map((hit, n) => {
    const own = chosen.filter((s) => s.hit === hit).sort((a, b) => a.index - b.index);
    const rows = own.some((s) => s.kind !== 'sentence');
    const header = own.find((s) => s.header)?.header;
    const body = own.map((s) => s.text).join(rows ? '\n' : ' ');
    return `${header ? `${header}\n` : ''}${body} [${n + 1}]`;
  });
  const intro = translate(lang, options.audience === 'visitor' ? 'answer.introPublic' : 'answer.intro');
  return {
    text: `${intro}\n\n${quotes.join('\n\n')}`,
    cited,
    noAnswer: false,
    confidence,
  };
}
