import { type DictdEntry, type DictdIndexLine, DictdText } from './dictd.ts';
import { entryTranslations, headwordOf, translationsOf, withoutPlaceholders } from './entry-translations.ts';
import { flatMapInSlices, nextTurn, sortInSlices } from './in-slices.ts';
import { normalizeWord } from './question-words.ts';

/**
 * One direction of a bilingual dictionary as a compact lookup: a word (or a two-word phrase) of the source language
 * to its translations, best first. A dictionary of that direction is looked up through its index, each entry read
 * from the file when a question needs it (FreeDict's English-German dictionary has 460,000 entries); one of the other
 * direction is reversed in memory (Russian → German from the German-Russian dictionary, whose translations become
 * the keys), which only small dictionaries are.
 *
 * Questions are inflected and headwords are not ("faktury", "Faturaları", "счета" against "faktura", "fatura",
 * "счёт"), so a word without an entry of its own finds the headwords that share its longest prefix: at least four
 * letters and most of the word, with at most a few letters of ending on either side. This is a stemmer that needs no
 * rules of its own for each language, and a wrong guess is still a word of the dictionary's language.
 */

export interface LexiconMatch {
  /** The key that matched (the word itself or a headword sharing its prefix). */
  key: string;
  exact: boolean;
  translations: string[];
  /** From a lexicon written by hand for the trade (`Lexicon.curated`). */
  curated?: boolean;
}

/** Translations kept per key (Ding lists up to dozens of senses, not the main ones first). */
const MAX_PER_KEY = 120;
/**
 * Prefix matching: the shared prefix is at least this long and this share of the word; a short word may differ in
 * its last letter only ("okna", "okno").
 */
const MIN_PREFIX = 4;
const MIN_SHORT_PREFIX = 3;
const MIN_PREFIX_SHARE = 0.5;
/**
 * Letters of inflection after the shared prefix: in the question's word (Turkish stacks suffixes: "Faturaları",
 * "saklamamız"), and in the headword.
 */
const MAX_WORD_ENDING = 3;
const MAX_AGGLUTINATING_ENDING = 5;
const AGGLUTINATING = new Set(['tur', 'fin', 'hun']);
const MAX_HEADWORD_ENDING = 3;
/**
 * Languages whose words are not found by a prefix: Arabic inflects by patterns inside the root, and its three-letter
 * prefixes are other words ("ساعة", hour, is no "ساعد", assistant); its clitics are split off before the lookup.
 */
const NO_PREFIX = new Set(['ara']);
/** The shortest headword a derived word is found by (`derivedFrom`). */
const DERIVED_MIN = 5;
/** The endings that make an adjective of a noun, in the Slavic languages that FreeDict reads: "газ-овый", "gaz-owy". */
const ADJECTIVE_OF_NOUN: Record<string, RegExp> = {
  rus: /^(?:ов|ев|н|ическ|ичн|альн)(?:ый|ий|ой|ая|яя|ое|ее|ые|ие|ого|его|ому|ему|ых|их|ым|им|ыми|ими|ую|юю|ом|ем)$/u,
  pol: /^(?:ow|n|yczn|aln)(?:y|a|e|ego|ej|ych|ym|ymi|ą|i)$/u,
};
/** Headwords that match one prefix equally well; more means the prefix is too short to tell. */
const MAX_PREFIX_KEYS = 4;

/**
 * Sorted keys (a key repeats for each entry it has) and the translations of the entry at a position: those of a
 * colloquial, rare or dated sense after the first `plain` (`entryTranslations`).
 */
interface Store {
  keys: string[];
  translations(position: number): { translations: string[]; plain: number };
}

export class Lexicon {
  private readonly store: Store;
  /** The language of the keys, for how much inflection a word may carry. */
  private readonly language: string;
  /**
   * Written by hand for the trade (trade-glossary.ts): each of a word's translations names the same thing, none a
   * rarer sense, so none ranks below another.
   */
  readonly curated: boolean;
  private constructor(store: Store, language = '', curated = false) {
    this.store = store;
    this.language = language;
    this.curated = curated;
  }

  /** Word pairs (source, translation), kept in memory. */
  static fromPairs(pairs: Iterable<readonly [string, string]>, language = '', curated = false): Lexicon {
    const map = pairMap(pairs);
    return Lexicon.ofMap(map, [...map.keys()].sort(), language, curated);
  }

  private static ofMap(
    map: Map<string, string[]>,
    keys: string[],
    language: string,
    curated = false,
  ): Lexicon {
    return new Lexicon(
      {
        keys,
        translations: (i) => {
          const translations = map.get(keys[i]!)!;
          return { translations, plain: translations.length };
        },
      },
      language,
      curated,
    );
  }

  /** A dictionary of this direction, through its index; entries are read from `dictPath` when looked up. */
  static indexed(
    index: DictdIndexLine[],
    dictPath: string,
    language: string,
    targetScript?: RegExp,
  ): Lexicon {
    return Lexicon.ofLines(index.flatMap(keyedLine).sort(byKey), dictPath, language, targetScript);
  }

  /** `indexed`, a slice at a time (see in-slices.ts). */
  static async indexedInSlices(
    index: DictdIndexLine[],
    dictPath: string,
    language: string,
    targetScript?: RegExp,
  ): Promise<Lexicon> {
    const lines = await sortInSlices(await flatMapInSlices(index, keyedLine), byKey);
    return Lexicon.ofLines(lines, dictPath, language, targetScript);
  }

  private static ofLines(
    lines: KeyedLine[],
    dictPath: string,
    language: string,
    targetScript?: RegExp,
  ): Lexicon {
    const text = new DictdText(dictPath);
    const parsed = new Map<number, { translations: string[]; plain: number }>();
    return new Lexicon(
      {
        keys: lines.map((l) => l.key),
        translations: (i) => {
          let found = parsed.get(i);
          if (!found) {
            const { offset, length } = lines[i]!.line;
            found = entryTranslations(text.read(offset, length), targetScript);
            if (parsed.size >= 4096) parsed.delete(parsed.keys().next().value!);
            parsed.set(i, found);
          }
          return found;
        },
      },
      language,
    );
  }

  /** A dictionary of the other direction, reversed: its translations to its headwords. */
  static reversed(entries: DictdEntry[], language: string, sourceScript?: RegExp): Lexicon {
    return Lexicon.fromPairs(
      entries.flatMap((e) => reversedPairs(e, sourceScript)),
      language,
    );
  }

  /** `reversed`, a slice at a time (see in-slices.ts). */
  static async reversedInSlices(
    entries: DictdEntry[],
    language: string,
    sourceScript?: RegExp,
  ): Promise<Lexicon> {
    const map = pairMap(await flatMapInSlices(entries, (e) => reversedPairs(e, sourceScript)));
    await nextTurn();
    const keys = await sortInSlices([...map.keys()], (a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return Lexicon.ofMap(map, keys, language);
  }

  get size(): number {
    return this.store.keys.length;
  }

  /** A two-word phrase, only as a whole ("sick note", "minimum wage"). */
  phrase(first: string, second: string): LexiconMatch | null {
    const key = `${normalizeWord(first)} ${normalizeWord(second)}`;
    const translations = this.exact(key);
    return translations ? { key, exact: true, translations } : null;
  }

  /**
   * How much a dictionary has to say about a word: its entries and the phrases that start with it ("Schlüssel
   * abziehen", "Schlüssel umdrehen"), up to `cap`. Common words have many; rare senses ("Keil" for "key") few.
   */
  commonness(word: string, cap = 200): number {
    const w = normalizeWord(word);
    const { keys } = this.store;
    let n = 0;
    for (let i = this.lowerBound(w); i < keys.length && n < cap; i++) {
      const key = keys[i]!;
      if (key !== w && !key.startsWith(`${w} `)) {
        // Keys between "w" and "w " (e.g. "w-…") sort before the phrases; skip those only.
        if (key.startsWith(w) && key < `${w} `) continue;
        break;
      }
      n++;
    }
    return n;
  }

  /** The translations of the word's own entries only (no prefix matching). */
  entry(word: string): string[] | null {
    return this.exact(normalizeWord(word));
  }

  /** The word's own entry, else those of the headwords sharing its longest prefix (see above). */
  word(word: string): LexiconMatch[] {
    const w = normalizeWord(word);
    const own = this.exact(w);
    if (own) return [{ key: w, exact: true, translations: own }];
    if (NO_PREFIX.has(this.language)) return [];
    const { keys } = this.store;
    const ending = AGGLUTINATING.has(this.language) ? MAX_AGGLUTINATING_ENDING : MAX_WORD_ENDING;
    const shortest = Math.max(
      w.length <= MIN_PREFIX + 1 ? MIN_SHORT_PREFIX : MIN_PREFIX,
      Math.ceil(w.length * MIN_PREFIX_SHARE),
      w.length - ending,
      w.length <= MIN_PREFIX + 1 ? w.length - 1 : 0,
    );
    for (let length = w.length - 1; length >= shortest; length--) {
      const prefix = w.slice(0, length);
      const found: string[] = [];
      for (let i = this.lowerBound(prefix); i < keys.length; i++) {
        const key = keys[i]!;
        if (!key.startsWith(prefix)) break;
        if (key.length - length <= MAX_HEADWORD_ENDING && !key.includes(' ') && found.at(-1) !== key)
          found.push(key);
        if (found.length > MAX_PREFIX_KEYS) return [];
      }
      if (found.length > 0)
        return found
          .sort((a, b) => a.length - b.length)
          .map((key) => ({ key, exact: false, translations: this.exact(key) ?? [] }));
    }
    return [];
  }

  /**
   * For a word no entry or inflection finds, the longest headword its beginning is: a word derived from it
   * ("thermostatiques", "termostatycznych", "термостатических" from "thermostat", "termostat", "термостат"), a
   * compound's first part. At least DERIVED_MIN letters and half of the word, or a short noun before the ending of
   * an adjective made from it ("газовый", "gazowy" from "газ", "gaz"); none for Arabic (see NO_PREFIX).
   */
  derivedFrom(word: string): LexiconMatch[] {
    const w = normalizeWord(word);
    if (NO_PREFIX.has(this.language) || w.includes(' ')) return [];
    const shortest = Math.max(DERIVED_MIN, Math.ceil(w.length * MIN_PREFIX_SHARE));
    const adjective = ADJECTIVE_OF_NOUN[this.language];
    for (let length = w.length - 1; length >= MIN_SHORT_PREFIX; length--) {
      const key = w.slice(0, length);
      if (length < shortest && !adjective?.test(w.slice(length))) continue;
      const translations = this.exact(key);
      if (translations) return [{ key, exact: false, translations }];
    }
    return [];
  }

  /**
   * The translations of every entry of a key, in order, those of colloquial, rare or dated senses after all others;
   * null when it has none.
   */
  private exact(key: string): string[] | null {
    const { keys } = this.store;
    const start = this.lowerBound(key);
    if (keys[start] !== key) return null;
    // Entries are read until MAX_PER_KEY different translations are in ("set" has hundreds): no more than needed.
    const entries: Array<{ translations: string[]; plain: number }> = [];
    const read = new Set<string>();
    for (let i = start; i < keys.length && keys[i] === key && read.size < MAX_PER_KEY; i++) {
      const entry = this.store.translations(i);
      entries.push(entry);
      for (const t of entry.translations) read.add(t);
    }
    const out = new Set<string>();
    for (const e of entries) for (const t of e.translations.slice(0, e.plain)) out.add(t);
    for (const e of entries) for (const t of e.translations.slice(e.plain)) out.add(t);
    return [...out].slice(0, MAX_PER_KEY);
  }

  private lowerBound(prefix: string): number {
    const { keys } = this.store;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Word pairs as keys (normalised; phrases of up to two words) with their translations, in order, without repeats. */
function pairMap(pairs: Iterable<readonly [string, string]>): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [source, target] of pairs) {
    const key = normalizeWord(source);
    if (!key || key.split(' ').length > 2) continue;
    const list = map.get(key);
    if (!list) map.set(key, [target]);
    else if (list.length < MAX_PER_KEY && !list.includes(target)) list.push(target);
  }
  return map;
}

interface KeyedLine {
  key: string;
  line: DictdIndexLine;
}

/** An index line under its normalised headword; none for a longer phrase. */
function keyedLine(line: DictdIndexLine): KeyedLine[] {
  // A verb with its preposition is listed with its object ("apply for sth"): found by the two words.
  const key = normalizeWord(withoutPlaceholders(line.headword));
  return key && key.split(' ').length <= 2 ? [{ key, line }] : [];
}

const byKey = (a: KeyedLine, b: KeyedLine) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : a.line.offset - b.line.offset;

/** A dictionary entry's translations, each to its headword. */
function reversedPairs(e: DictdEntry, sourceScript?: RegExp): Array<readonly [string, string]> {
  const headword = withoutPlaceholders(headwordOf(e.body, e.headword));
  if (headword.split(' ').length > 2) return [];
  return translationsOf(e.body, sourceScript).map((t) => [t, headword] as const);
}
