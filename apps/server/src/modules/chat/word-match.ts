import snowballFactory from 'snowball-stemmers';
import { STOPWORDS } from '../embedding/stopwords.ts';
import { compoundParts, germanWordList } from '../search/german-compounds.ts';
import { synonymsOf } from '../search/german-thesaurus.ts';
import { QUESTION_FILLERS } from '../search/query-terms.ts';

/**
 * How the built-in answerer tells that a word of the question is in a sentence or row: the same word inflected
 * ("Stunden", "Stunde"), a part of a compound ("Stunde" in "Monteurstunde", "Geselle" and "Stunde" for
 * "Gesellenstunde"), a derived word ("krank", "Krankheit") or a word with a small typo ("widerholen"); figures and
 * codes only as they are.
 */

/** Lower case, without accents and with ß as ss; an Arabic article ("ال") dropped. */
export function fold(word: string): string {
  return word
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/^(ال|وال|بال|لل)(?=\p{L}{3})/u, '');
}

const stemmers = {
  latin: snowballFactory.newStemmer('german'),
  cyrillic: snowballFactory.newStemmer('russian'),
  arabic: snowballFactory.newStemmer('arabic'),
  english: snowballFactory.newStemmer('english'),
};
/**
 * A word without its inflection (Snowball: "Stunden" → "stund"; the German stemmer for Latin script, since the
 * companies' documents are German, the Russian one for Cyrillic, the Arabic one for Arabic script).
 */
export function core(word: string): string {
  const stemmer = /\p{Script=Cyrillic}/u.test(word)
    ? stemmers.cyrillic
    : /\p{Script=Arabic}/u.test(word)
      ? stemmers.arabic
      : stemmers.latin;
  const stem = stemmer.stem(word);
  return stem.length >= 3 ? stem : word;
}

/**
 * A Latin-script word without its English inflection ("opened", "opens" → "open"), which the German stemmer leaves:
 * the second core an English question or document is matched by. Null for other scripts and figures.
 */
export function englishCore(word: string): string | null {
  if (isFigure(word) || !/^[a-z]+$/.test(word)) return null;
  const stem = stemmers.english.stem(word);
  return stem.length >= 3 ? stem : word;
}

/** The words of a text, folded: letters and figures, each run of them a word ("H-1002" → "h", "1002"). */
export function wordsOf(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).map(fold);
}

const isFigure = (w: string) => /\p{N}/u.test(w);

/** Words that carry no topic: function words, the fillers and question words of questions. */
export function isFunctionWord(word: string): boolean {
  return STOPWORDS.has(word) || QUESTION_FILLERS.has(word);
}

/** The words of a unit of text, ready for matching: folded, their cores, and their compounds' parts' cores. */
export interface WordSet {
  words: Set<string>;
  cores: Set<string>;
  /** The English cores of its Latin-script words (`englishCore`). */
  englishCores: Set<string>;
  /** Cores of the parts of the text's compounds ("monteurstunde" → "monteur", "stund"). */
  parts: Set<string>;
}

/** What matching needs of one word of a text (lower case, as written): its fold, cores and compound parts' cores. */
interface TextWord {
  word: string;
  /** Null for a figure. */
  core: string | null;
  englishCore: string | null;
  parts: string[];
}

/**
 * Words seen before, by their lower-case form. Stemming and splitting every word of the 20 passages a question reads
 * again for evidence took most of a question's CPU time (bench:chat's profile); a company's texts use a bounded
 * vocabulary, so a word is worked out once per process. Emptied when full (no eviction order to keep).
 */
const textWords = new Map<string, TextWord>();
const TEXT_WORDS_LIMIT = 100_000;

function textWord(lower: string): TextWord {
  let known = textWords.get(lower);
  if (known) return known;
  const w = fold(lower);
  known = isFigure(w)
    ? { word: w, core: null, englishCore: null, parts: [] }
    : {
        word: w,
        core: core(w),
        englishCore: englishCore(w),
        // Split as written: the word list knows "Prüfung", not "Prufung".
        parts: compoundParts(lower).map((p) => core(fold(p))),
      };
  if (textWords.size >= TEXT_WORDS_LIMIT) textWords.clear();
  textWords.set(lower, known);
  return known;
}

export function wordSet(text: string): WordSet {
  const raw = new Set((text.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase()));
  const words = new Set<string>();
  const cores = new Set<string>();
  const englishCores = new Set<string>();
  const parts = new Set<string>();
  for (const lower of raw) {
    const t = textWord(lower);
    words.add(t.word);
    if (t.core === null) continue;
    cores.add(t.core);
    if (t.englishCore) englishCores.add(t.englishCore);
    for (const p of t.parts) parts.add(p);
  }
  return { words, cores, englishCores, parts };
}

/** The two rows `within` works in, grown as needed: it runs for many word pairs per question. */
let rowA = new Int32Array(32);
let rowB = new Int32Array(32);

/** Levenshtein distance, stopping early once it exceeds `max`. */
function within(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  const n = b.length;
  if (rowA.length <= n) {
    rowA = new Int32Array(n + 1);
    rowB = new Int32Array(n + 1);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const char = a.charCodeAt(i - 1);
    cur[0] = i;
    let best = i;
    for (let j = 1; j <= n; j++) {
      const v = Math.min(
        prev[j]! + 1,
        cur[j - 1]! + 1,
        prev[j - 1]! + (char === b.charCodeAt(j - 1) ? 0 : 1),
      );
      cur[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return false;
    [prev, cur] = [cur, prev];
  }
  return prev[n]! <= max;
}

/** The share of a compound that its head (last part) stands for, when the question's compound is found by parts. */
const HEAD_SHARE = 0.75;

/** How much a match of each kind is worth. */
export const MATCH = { exact: 1, part: 0.8, derived: 0.7, typo: 0.8, synonym: 0.7 } as const;

/** A question word prepared for matching: folded, its core, its compounds' parts' cores. */
export interface AskedWord {
  word: string;
  core: string;
  /** Its English core (`englishCore`), or null. */
  englishCore: string | null;
  parts: string[];
  /** A word of the German word list (spelt right): no typo of another one. */
  known: boolean;
  /** Cores of its synonyms (german-thesaurus.ts). */
  synonyms: string[];
}

/** A question word (lower case, as written: compounds split and synonyms found before folding). */
export function askedWord(word: string): AskedWord {
  const lower = word.toLowerCase();
  const w = fold(lower);
  const figure = isFigure(w);
  return {
    word: w,
    core: figure ? w : core(w),
    englishCore: englishCore(w),
    parts: figure ? [] : compoundParts(lower).map((p) => core(fold(p))),
    known: figure || (germanWordList()?.has(lower) ?? false),
    synonyms: figure || isFunctionWord(w) ? [] : synonymsOf(lower).map((s) => core(fold(s))),
  };
}

/**
 * How well a unit's words hold a question word (0 to 1): the word itself or inflected (1); a figure or code only as it
 * is; a part of one of the unit's compounds, or the parts of the question's compound among the unit's words (0.8, the
 * head three quarters of it); a word derived from it or it from one, sharing five letters at the start (0.7); a
 * word one letter apart (two for long words) when the question's word is no word of the German word list (0.8); a
 * synonym (0.7).
 */
export function matchWord(asked: AskedWord, set: WordSet): number {
  if (set.words.has(asked.word)) return MATCH.exact;
  if (isFigure(asked.word)) return 0;
  if (set.cores.has(asked.core)) return MATCH.exact;
  if (asked.englishCore && set.englishCores.has(asked.englishCore)) return MATCH.exact;
  let best = 0;
  if (asked.core.length >= 4 && set.parts.has(asked.core)) best = MATCH.part;
  if (asked.parts.length > 1) {
    // The head (the last part: "-stunde" of "Monteurstunde") says what the compound is, the rest what kind.
    const has = (p: string) => set.cores.has(p) || set.parts.has(p);
    const head = asked.parts.at(-1)!;
    const others = asked.parts.slice(0, -1);
    const share =
      (has(head) ? HEAD_SHARE : 0) + ((1 - HEAD_SHARE) * others.filter(has).length) / others.length;
    best = Math.max(best, MATCH.part * share);
  }
  if (best >= MATCH.part) return best;
  if (asked.synonyms.some((syn) => set.cores.has(syn) || set.parts.has(syn)))
    best = Math.max(best, MATCH.synonym);
  if (asked.core.length >= 4) {
    for (const other of set.cores) {
      if (other.length < 4) continue;
      const [short, long] = asked.core.length <= other.length ? [asked.core, other] : [other, asked.core];
      if (asked.core.length >= 4 && other.length > asked.core.length + 2 && other.endsWith(asked.core))
        best = Math.max(best, MATCH.part);
      else if (short.length >= 5 && long.startsWith(short) && long.length - short.length <= 6)
        best = Math.max(best, MATCH.derived);
      else if (
        !asked.known &&
        asked.core.length >= 6 &&
        within(asked.core, other, asked.core.length >= 9 ? 2 : 1)
      )
        best = Math.max(best, MATCH.typo);
    }
  }
  return best;
}
