import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';

/**
 * Words of the same meaning in German, from OpenThesaurus as Debian packages it (`mythes-de`:
 * /usr/share/mythes/th_de_DE_v2.idx and .dat; installed by the Dockerfile, .ci/run and the README's apt line): staff
 * ask in everyday words ("Azubi", "Lohn", "Krankschreibung", "Chef") about documents written in formal ones
 * ("Auszubildender", "Arbeitsentgelt", "Arbeitsunfähigkeitsbescheinigung", "Vorgesetzter"). Search looks for a
 * question word's synonyms too (weighed as a part of it, query-terms.ts), and the built-in answerer counts a synonym
 * as a near match. Without the package nothing changes.
 */

export const GERMAN_THESAURUS_PATHS = {
  index: '/usr/share/mythes/th_de_DE_v2.idx',
  data: '/usr/share/mythes/th_de_DE_v2.dat',
};

/** Shorter synonyms ("Ende" for "Feierabend") say too little to be looked for. */
const MIN_SYNONYM = 5;
/** At most this many synonyms of one word, from its first meanings. */
const MAX_SYNONYMS = 8;
/** An entry is read up to this many bytes (the longest run of meanings). */
const ENTRY_BYTES = 16_384;
const CACHE_LIMIT = 20_000;
/** Endings of plurals and inflected forms tried when a word is not a head word itself. */
const PLURALS = ['s', 'n', 'en', 'e', 'er', 'es'];

interface Thesaurus {
  /** Head words, sorted as the index sorts them, and each one's byte offset in the data file. */
  words: string[];
  offsets: Float64Array;
  data: string;
}

let thesaurus: Thesaurus | null | undefined;
const cache = new Map<string, string[]>();

/** The system's thesaurus (its index read once per process), or null when there is none. */
export function germanThesaurus(paths = GERMAN_THESAURUS_PATHS): Thesaurus | null {
  if (thesaurus !== undefined) return thesaurus;
  if (!existsSync(paths.index) || !existsSync(paths.data)) {
    thesaurus = null;
    return null;
  }
  const entries = readFileSync(paths.index, 'utf8')
    .split('\n')
    .slice(2)
    .flatMap((line) => {
      const bar = line.lastIndexOf('|');
      return bar > 0 ? [[line.slice(0, bar), Number(line.slice(bar + 1))] as const] : [];
    })
    .filter(([, offset]) => Number.isFinite(offset))
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  thesaurus = {
    words: entries.map(([w]) => w),
    offsets: Float64Array.from(entries.map(([, o]) => o)),
    data: paths.data,
  };
  return thesaurus;
}

function offsetOf(t: Thesaurus, word: string): number | null {
  let lo = 0;
  let hi = t.words.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const w = t.words[mid]!;
    if (w === word) return t.offsets[mid]!;
    if (w < word) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}

/**
 * The one-word synonyms of a word (lower case), from its meanings in the thesaurus' order: without the wider and
 * narrower terms it lists (marked "Oberbegriff", "Unterbegriff"), without phrases; empty when it has none.
 */
export function synonymsOf(word: string): string[] {
  const key = word.toLowerCase();
  const cached = cache.get(key);
  if (cached) return cached;
  const t = germanThesaurus();
  // The thesaurus lists base forms: a plural is looked up without its ending ("Azubis" → "azubi").
  const form = t
    ? [key, ...PLURALS.map((e) => (key.endsWith(e) ? key.slice(0, -e.length) : ''))].find(
        (f) => f.length >= 3 && offsetOf(t, f) !== null,
      )
    : undefined;
  const offset = t && form ? offsetOf(t, form) : null;
  let synonyms: string[] = [];
  if (t && offset !== null) {
    const fd = openSync(t.data, 'r');
    try {
      const buffer = Buffer.alloc(ENTRY_BYTES);
      const read = readSync(fd, buffer, 0, ENTRY_BYTES, offset);
      synonyms = parseEntry(buffer.subarray(0, read).toString('utf8'), form!);
    } finally {
      closeSync(fd);
    }
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, synonyms);
  return synonyms;
}

/** An entry of the data file: `word|n`, then n lines `-|synonym|synonym (note)|...`. */
export function parseEntry(text: string, word: string): string[] {
  const lines = text.split('\n');
  const count = Number(lines[0]?.split('|')[1] ?? 0);
  const out: string[] = [];
  for (const line of lines.slice(1, 1 + count)) {
    for (const raw of line.split('|').slice(1)) {
      if (/Oberbegriff|Unterbegriff|Gegenwort/u.test(raw)) continue;
      const synonym = raw
        .replace(/\([^)]*\)/gu, '')
        .trim()
        .toLowerCase();
      if (!/^\p{L}[\p{L}-]*$/u.test(synonym) || synonym.length < MIN_SYNONYM) continue;
      if (synonym === word || out.includes(synonym)) continue;
      out.push(synonym);
      if (out.length >= MAX_SYNONYMS) return out;
    }
  }
  return out;
}

/** For tests: forget the thesaurus read (another path next time) and the cached entries. */
export function resetGermanThesaurus(): void {
  thesaurus = undefined;
  cache.clear();
}
