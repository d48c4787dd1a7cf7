import { existsSync, readFileSync } from 'node:fs';
import { STOPWORDS } from '../embedding/stopwords.ts';

/**
 * German compounds split into their parts ("Anfahrtspauschale" → "anfahrt", "pauschale"), so that a question finds a
 * compound by its parts and its parts by the compound: passages carry their compounds' parts as extra index terms
 * (passage-writer.ts), questions theirs as extra search terms (query-terms.ts). Both sides are computed here in Node,
 * so that PGlite (whose text search has no dictionary files beyond its own) and any PostgreSQL behave alike.
 *
 * The parts are words of the German word list where the system has one (Debian's `wngerman`, /usr/share/dict/ngerman:
 * every inflected form, installed by the Dockerfile, .ci/run and the README's apt line), and words of the text being
 * split (a price list that writes "Anfahrt" and "Pauschale" splits its "Anfahrtspauschale" without the list). Without
 * the list a compound whose parts the text does not hold stays whole, as before.
 */

/** Where Debian and most distributions put the German word list. */
export const GERMAN_WORDLIST_PATHS = ['/usr/share/dict/ngerman'];

/** Words shorter than this are not split. */
const MIN_COMPOUND = 7;
/** The shortest part; the last may be as short as MIN_LAST after a first part of LONG_FIRST ("Krankheits-tag"). */
const MIN_PART = 4;
const MIN_LAST = 3;
/** A noun of this length may begin a compound ("Not-dienst-zuschlag"): see `Known.shortNoun`. */
const SHORT_FIRST = 3;
const LONG_FIRST = 6;
/** Plural and case endings of nouns, for a form the list lacks. */
const INFLECTIONS = ['e', 'en', 'n', 'es', 's', 'er', 'ern'];
/** A last part that the list does not write as a noun must be at least this long. */
const LONG_HEAD = 6;
/** The parts of a part are given too when the part is at least this long, each at least SUB_PART letters. */
const SPLIT_PART = 9;
const SUB_PART = 4;
/** Linking elements between parts ("Anfahrt-s-pauschale", "Geselle-n-stunde"). */
const LINKS = ['s', 'es', 'n', 'en', 'er', 'e'];
/** At most this many parts are given for one word (its split, then the splits of its parts). */
const MAX_PARTS = 6;
const CACHE_LIMIT = 50_000;

/**
 * A sorted word list held compactly: one string, the offsets of its words, and whether a word is a noun (the list
 * writes it capitalised); a Set of the same words would take several times the memory.
 */
class WordList {
  private readonly text: string;
  private readonly starts: Uint32Array;
  private readonly nouns: Uint8Array;

  /** `entries`: words as the list writes them (nouns capitalised). */
  constructor(entries: string[]) {
    const byWord = new Map<string, boolean>();
    for (const entry of entries) {
      const word = entry.toLowerCase();
      byWord.set(word, (byWord.get(word) ?? false) || entry !== word);
    }
    const sorted = [...byWord.keys()].sort();
    this.starts = new Uint32Array(sorted.length + 1);
    this.nouns = new Uint8Array(sorted.length);
    let at = 0;
    sorted.forEach((w, i) => {
      this.starts[i] = at;
      this.nouns[i] = byWord.get(w) ? 1 : 0;
      at += w.length;
    });
    this.starts[sorted.length] = at;
    this.text = sorted.join('');
  }

  /** Whether the list has the (lower-case) word; `noun`: and writes it capitalised. */
  has(word: string, noun = false): boolean {
    let lo = 0;
    let hi = this.starts.length - 2;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = this.compare(mid, word);
      if (c === 0) return !noun || this.nouns[mid] === 1;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** The list's word `i` against `word`, as string comparison orders them (code units). */
  private compare(i: number, word: string): number {
    const start = this.starts[i]!;
    const length = this.starts[i + 1]! - start;
    const n = Math.min(length, word.length);
    for (let k = 0; k < n; k++) {
      const d = this.text.charCodeAt(start + k) - word.charCodeAt(k);
      if (d !== 0) return d;
    }
    return length - word.length;
  }
}

let wordList: WordList | null | undefined;

/** The system's German word list (read once per process, lower-case), or null when there is none. */
export function germanWordList(paths: string[] = GERMAN_WORDLIST_PATHS): WordList | null {
  if (wordList !== undefined) return wordList;
  const path = paths.find((p) => existsSync(p));
  wordList = path
    ? new WordList(
        readFileSync(path, 'utf8')
          .split('\n')
          .map((w) => w.trim())
          .filter((w) => w.length >= MIN_LAST && /^\p{L}+$/u.test(w)),
      )
    : null;
  return wordList;
}

const cache = new Map<string, string[]>();

/**
 * The parts of a German compound, lower-case, without linking elements ("Arbeitszeitgesetz" → "arbeitszeit",
 * "gesetz", "arbeit", "zeit"): the split into the fewest known parts (the longest shortest part breaking ties), then
 * the splits of those parts. Empty when the word is no compound the known words (the word list and `textWords`, the
 * lower-case words of the text it comes from) explain.
 */
export function compoundParts(word: string, textWords?: ReadonlySet<string>): string[] {
  const lower = word.toLowerCase();
  if (lower.length < MIN_COMPOUND || !/^\p{L}+$/u.test(lower)) return [];
  const list = germanWordList();
  if (!list && !textWords) return [];
  const cacheable = !textWords;
  if (cacheable) {
    const cached = cache.get(lower);
    if (cached) return cached;
  }
  const known: Known = {
    word: (w) => (list?.has(w) ?? false) || (textWords?.has(w) ?? false),
    // The head of a compound noun is a noun ("-stunde"), or a longer word (the list writes "pauschale" small too), not
    // a short non-noun ("-ahme" in Probe-n-ahme, "-zart" in Schutz-art).
    noun: (w) =>
      (list
        ? list.has(w, true) ||
          (w.length >= LONG_HEAD && list.has(w)) ||
          // An inflected noun the list lacks ("Tage" beside "Tag").
          INFLECTIONS.some(
            (e) => w.length - e.length >= MIN_LAST && w.endsWith(e) && list.has(w.slice(0, -e.length), true),
          )
        : false) ||
      (textWords?.has(w) ?? false),
    shortNoun: (w) => w.length === SHORT_FIRST && (list?.has(w, true) ?? false),
  };
  const parts: string[] = [];
  const add = (w: string) => {
    if (parts.length < MAX_PARTS && !parts.includes(w) && w !== lower) parts.push(w);
  };
  const visit = (w: string, min: number, top = false) => {
    const split = bestSplit(w, known, min, top);
    if (!split) return;
    for (const part of split) add(part);
    for (const part of split) if (part.length >= SPLIT_PART) visit(part, SUB_PART);
  };
  visit(lower, MIN_PART, !known.word(lower));
  if (cacheable) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(lower, parts);
  }
  return parts;
}

interface Known {
  word(w: string): boolean;
  noun(w: string): boolean;
  /** A noun of the word list shorter than the shortest part, which may begin a compound ("Not-dienst", "Gas-therme"). */
  shortNoun(w: string): boolean;
}

/** Prepositions and particles that begin words of their own ("Unterlagen", "Vorschlag", "Ausgang"), not compounds. */
const PARTICLES = new Set(
  'ab an auf aus bei durch gegen hinter hin her mit nach neben ohne über um unter vor wider zu zurück zwischen'.split(
    ' ',
  ),
);

/**
 * A word as a first or middle part of a compound: itself or without a linking element ("Anfahrt-s-"), never a function
 * word or particle ("Unter-lagen", "Vor-schlag" are words of their own).
 */
function asFirstPart(w: string, known: Known, min: number): string | null {
  if (w.length < min || STOPWORDS.has(w) || PARTICLES.has(w)) return null;
  if (known.word(w)) return w;
  for (const link of LINKS) {
    const stem = w.slice(0, -link.length);
    if (w.endsWith(link) && stem.length >= min && known.word(stem)) return stem;
  }
  return null;
}

/**
 * The split of a word into at least two known parts of at least `min` letters (the last a noun), fewest parts first,
 * then the longest shortest part. `top`: the word is itself no listed word, so a three-letter noun may begin it.
 */
function bestSplit(word: string, known: Known, min: number, top = false): string[] | null {
  const memo = new Map<string, string[] | null>();
  const from = (start: number, after: number): string[] | null => {
    const key = `${start}:${after >= LONG_FIRST ? 1 : 0}`;
    if (memo.has(key)) return memo.get(key)!;
    const rest = word.slice(start);
    const shortest = after >= LONG_FIRST ? Math.min(min, MIN_LAST) : min;
    let best: string[] | null = start > 0 && rest.length >= shortest && known.noun(rest) ? [rest] : null;
    // A short noun begins the word: only as its first part, and only when the rest splits or is a long noun. A split
    // with longer parts, if any, is still preferred (`better`).
    let shortStart = false;
    if (!best && start === 0 && top && known.shortNoun(word.slice(0, SHORT_FIRST))) {
      const tail = from(SHORT_FIRST, SHORT_FIRST);
      if (tail && (tail.length > 1 || tail[0]!.length >= LONG_HEAD))
        best = [word.slice(0, SHORT_FIRST), ...tail];
      shortStart = best !== null;
    }
    if (!best || shortStart)
      for (let cut = start + min; cut <= word.length - Math.min(min, MIN_LAST); cut++) {
        const head = asFirstPart(word.slice(start, cut), known, min);
        if (!head) continue;
        const tail = from(cut, head.length);
        if (tail && (!best || better([head, ...tail], best))) best = [head, ...tail];
      }
    memo.set(key, best);
    return best;
  };
  const split = from(0, 0);
  return split && split.length > 1 ? split : null;
}

function better(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return a.length < b.length;
  return Math.min(...a.map((p) => p.length)) > Math.min(...b.map((p) => p.length));
}

/** For tests: forget the word list read (another path next time) and the cached splits. */
export function resetGermanWordList(): void {
  wordList = undefined;
  cache.clear();
}
