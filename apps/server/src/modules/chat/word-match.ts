import snowballFactory from 'snowball-stemmers';
import { STOPWORDS } from '../embedding/stopwords.ts';
import { compoundParts, germanWordList } from '../search/german-compounds.ts';
import { synonymsOf } from '../search/german-thesaurus.ts';
import { separableStem } from '../search/german-verb-forms.ts';
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

/**
 * A German verb's or its noun's stem, which Snowball leaves apart: the participle ("gewartet", "gekürzt") without
 * its "ge-" and ending, a verb form without "-et"/"-t"/"-en" ("wartet", "wiederholt"), a noun of action without
 * "-ung" ("Wartung", "Kürzung"): "gewartet", "wartet" and "Wartung" share "wart". Null when nothing is taken off or
 * fewer than four letters are left (folded words of Latin script only).
 */
export function verbRoot(word: string): string | null {
  if (!/^[a-z]+$/.test(word)) return null;
  const participle = /^ge([a-z]{4,}?)(?:et|t|en)$/.exec(word);
  const root = participle ? participle[1]! : word.replace(/(?:ung|et|t|en)$/, '');
  return root !== word && root.length >= 4 ? root : null;
}

/**
 * A word's core (lower case as written, and folded): its stem, or a separable verb's stem with its particle, which all
 * of its forms share ("aufgeteilt", "aufzuteilen", "aufteilen" → "aufteil", german-verb-forms.ts).
 */
function coreOf(lower: string, folded: string): string {
  const separable = separableStem(lower);
  return separable ? fold(separable) : core(folded);
}

/**
 * The noun of an adjective in "-lich" ("täglich" → "tag", "jährlichen" → "jahr"; folded), or null. Snowball takes
 * "-lich" off long words only ("werktäglich" → "werktag"): a short adjective's core keeps it.
 */
export function adjectiveRoot(word: string): string | null {
  return /^([a-z]{3,})lich(?:e|en|er|em|es)?$/.exec(word)?.[1] ?? null;
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
  /** The German verb roots of its words (`verbRoot`), and its short adjectives' nouns (`adjectiveRoot`). */
  roots: Set<string>;
}

/** What matching needs of one word of a text (lower case, as written): its fold, cores and compound parts' cores. */
interface TextWord {
  word: string;
  /** Null for a figure. */
  core: string | null;
  englishCore: string | null;
  parts: string[];
  root: string | null;
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
    ? { word: w, core: null, englishCore: null, parts: [], root: null }
    : {
        word: w,
        core: coreOf(lower, w),
        englishCore: englishCore(w),
        root: adjectiveRoot(w) ?? verbRoot(w),
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
  const roots = new Set<string>();
  for (const lower of raw) {
    const t = textWord(lower);
    words.add(t.word);
    if (t.core === null) continue;
    cores.add(t.core);
    if (t.englishCore) englishCores.add(t.englishCore);
    for (const p of t.parts) parts.add(p);
    if (t.root) roots.add(t.root);
  }
  return { words, cores, englishCores, parts, roots };
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
  /** Its German verb root (`verbRoot`) or, for a short adjective, its noun (`adjectiveRoot`), or null. */
  root: string | null;
  /**
   * A long word the word list does not split ("Gastherme"): every way to cut it into a first part of at least
   * MIN_MODIFIER letters (without a linking "s") and the core of the rest, found by a text's own words.
   */
  cuts: Array<{ modifier: string; head: string }>;
}

/** The shortest first part, and the shortest rest, of a compound cut by a text's own words. */
const MIN_MODIFIER = 3;
const MIN_HEAD = 4;
const MIN_CUT_WORD = 7;

function cutsOf(word: string): AskedWord['cuts'] {
  const cuts: AskedWord['cuts'] = [];
  for (let i = MIN_MODIFIER; i <= word.length - MIN_HEAD; i++) {
    const modifier = word.slice(0, i);
    const head = core(word.slice(i));
    // A preposition or article is no part ("nach" of "Nachprüfung" is not the text's "nach").
    if (!isFunctionWord(modifier)) cuts.push({ modifier, head });
    const unlinked = modifier.slice(0, -1);
    if (modifier.endsWith('s') && unlinked.length >= MIN_MODIFIER && !isFunctionWord(unlinked))
      cuts.push({ modifier: unlinked, head });
  }
  return cuts;
}

/**
 * The spoken short forms of "heraus", "herauf", "herunter", "herüber", "herum", "heran" ("krieg ich den Brenner
 * raus"), as the documents write them ("herausnehmen"). Not "rein", which is also an adjective ("rein" = pure).
 */
function colloquial(lower: string): string {
  return /^r(?:aus|auf|unter|über|um|an)$/.test(lower) ? `he${lower}` : lower;
}

/**
 * Question words worked out before, by their lower-case form: a question's words are prepared for each of its two or
 * three scorings (evidence order, relevance check, answer), each translation's alternatives too, and cutting a long
 * word stems every cut (bench:chat's profile: most of the scoring's own time). Emptied when full, as `textWords`.
 */
const askedWords = new Map<string, AskedWord>();
const ASKED_WORDS_LIMIT = 20_000;

/** A question word (lower case, as written: compounds split and synonyms found before folding). Shared: frozen. */
export function askedWord(word: string): AskedWord {
  const lower = colloquial(word.toLowerCase());
  let asked = askedWords.get(lower);
  if (!asked) {
    asked = Object.freeze(prepareAsked(lower));
    if (askedWords.size >= ASKED_WORDS_LIMIT) askedWords.clear();
    askedWords.set(lower, asked);
  }
  return asked;
}

function prepareAsked(lower: string): AskedWord {
  const w = fold(lower);
  const figure = isFigure(w);
  const parts = figure ? [] : compoundParts(lower).map((p) => core(fold(p)));
  return {
    word: w,
    core: figure ? w : coreOf(lower, w),
    englishCore: englishCore(w),
    parts,
    known: figure || (germanWordList()?.has(lower) ?? false),
    synonyms: figure || isFunctionWord(w) ? [] : synonymsOf(lower).map((s) => core(fold(s))),
    root: figure ? null : (adjectiveRoot(w) ?? verbRoot(w)),
    cuts: parts.length > 0 || !/^[a-z]+$/.test(w) || w.length < MIN_CUT_WORD ? [] : cutsOf(w),
  };
}

/**
 * How well a unit's words hold a question word (0 to 1): the word itself or inflected (1); a figure or code only as it
 * is; a part of one of the unit's compounds, or the parts of the question's compound among the unit's words (0.8, the
 * head three quarters of it); a word derived from it or it from one, sharing five letters at the start (0.7); a
 * word one letter apart (two for long words) when the question's word is no word of the German word list (0.8); a
 * synonym (0.7); a verb form or its noun sharing their root (`verbRoot`: "gewartet", "Wartung"), or a typo of it,
 * or a short adjective and its noun (`adjectiveRoot`: "täglich", "Tag") (0.7); a compound the word list does not split, cut into words of the unit ("Gastherme": "Gas", "-therme", 0.8).
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
  // A compound the word list does not split, whose parts the text writes as words of their own ("Gastherme" in
  // "Gas-Brennwerttherme"): the first part as a word of the text, the rest as a word or a compound's part.
  for (const cut of asked.cuts)
    if (
      (set.words.has(cut.modifier) || set.cores.has(cut.modifier)) &&
      (set.cores.has(cut.head) || set.parts.has(cut.head))
    ) {
      best = Math.max(best, MATCH.part);
      break;
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
  // A verb form and its noun ("gewartet" for "Wartung", "gekürzt" for "Kürzung"), or a typo of one ("widerholen").
  if (best < MATCH.derived) {
    const root = asked.root;
    if ((root && (set.roots.has(root) || set.cores.has(root))) || set.roots.has(asked.core))
      best = MATCH.derived;
    else if (root && !asked.known && root.length >= 6)
      for (const other of set.roots)
        if (other.length >= 6 && within(root, other, root.length >= 9 ? 2 : 1)) best = MATCH.derived;
  }
  return best;
}
