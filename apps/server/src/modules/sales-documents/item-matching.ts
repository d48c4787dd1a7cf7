import { compoundParts } from '../search/german-compounds.ts';
import {
  FUNCTION_WORDS,
  normalizeWord,
  transliterateCyrillic,
} from '../search/query-translation/question-words.ts';
import type { QueryTranslation } from '../search/query-translation/translation.ts';
import type { AskedItem } from './asked-items.ts';
import type { PricedRow } from './price-lines.ts';

/**
 * Which price-list row an asked item means, without a model: the row that holds most of the item's words. A word
 * counts fully when the row writes it (inflected: "Heizkörper" ~ "Heizkörpers", "Thermostatköpfe" ~ "Thermostatkopf")
 * or one of its translations (a job in English against a German list), and in part when only parts of a German
 * compound stand in the row ("Heizungswartung" ~ "Wartung"). So "Wartung des Gas-Brennwertkessels" takes "Wartung
 * Gas-Brennwertkessel bodenstehend" (all three words) over "Wartung Öl-Brennwertkessel" (two) and "Wartung
 * Gas-Brennwerttherme" (two and a part), and "Monteurstunden Geselle" the journeyman's hour over the master's.
 */

/** A word the row holds only in parts counts at most this much. */
const PARTIAL = 0.9;

const FUNCTION = new Set(Object.values(FUNCTION_WORDS).flatMap((words) => [...words]));

/** Lower case without accents and umlauts, ß as ss: how two spellings of one word are compared. */
const fold = (word: string) =>
  normalizeWord(word).normalize('NFD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss');

/** Whether two folded words are one word: equal, or one an inflection of the other (a few letters longer). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  if (/\d/.test(a) || /\d/.test(b)) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.length - short.length <= 3 && long.startsWith(short);
}

const WORD = /[\p{L}\p{M}\p{N}²³]+/gu;
/**
 * A word as its international stem is spelt across the languages, for words the dictionaries lack: Latin letters
 * (Cyrillic transliterated), no accents, "th", "ph", "y", "w", "c", "z" as "t", "f", "i", "v", "k", "s", no double
 * letters. "Thermostat", "thermostatiques", "termostáticas", "termostatycznych", "термостатических" all begin with
 * "termostat".
 */
function cognateOf(word: string): string {
  const latin = transliterateCyrillic(word) ?? fold(word);
  return fold(latin)
    .replace(/th/g, 't')
    .replace(/ph/g, 'f')
    .replace(/tsch|sch|ch/g, 'k')
    .replace(/y/g, 'i')
    .replace(/w/g, 'v')
    .replace(/c/g, 'k')
    .replace(/z/g, 's')
    .replace(/(\p{L})\1+/gu, '$1');
}
/** The shortest row word or part an asked word is taken to be derived from by its spelling alone. */
const MIN_COGNATE = 6;

/** A text's words, lower case, without function words; hyphenated words in their parts ("Gas-Brennwertkessel"). */
const wordsOf = (text: string) =>
  (normalizeWord(text).match(WORD) ?? []).filter((w) => !FUNCTION.has(w) && (w.length > 1 || /\d/.test(w)));

/** The parts of a German compound, folded ("brennwertkessel" → "brennwert", "kessel", …). */
const partsOf = (word: string, known: ReadonlySet<string>) => compoundParts(word, known).map(fold);

/** A row's words and their compounds' parts, folded. */
interface RowWords {
  words: string[];
  parts: string[];
  /** Its words and parts as `cognateOf` spells them, those of at least MIN_COGNATE letters. */
  cognates: string[];
}

function rowWords(row: PricedRow, known: ReadonlySet<string>): RowWords {
  const words = wordsOf(`${row.item} ${row.unit}`);
  const folded = words.map(fold);
  const parts = words.flatMap((w) => partsOf(w, known));
  const cognates = [...folded, ...parts].map(cognateOf).filter((c) => c.length >= MIN_COGNATE);
  return { words: folded, parts, cognates };
}

/**
 * How much of one asked word (in any of its forms: itself, its translations) the row holds: 1 when the row writes it;
 * else, below 1, the share of its compound's parts (or of its words, which may be parts of the row's compounds: "Kopf"
 * in "Thermostatkopf") that the row's words or their parts hold ("Meisterstunde" in "Monteurstunde Meister": 0.9).
 */
function wordScore(forms: string[][], row: RowWords, known: ReadonlySet<string>): number {
  const held = (w: string) => row.words.some((r) => sameWord(w, r)) || row.parts.some((r) => sameWord(w, r));
  let best = 0;
  for (const form of forms) {
    const folded = form.map(fold);
    if (folded.every((w) => row.words.some((r) => sameWord(w, r)))) return 1;
    const parts = form.length === 1 ? partsOf(form[0]!, known) : [];
    const pieces = parts.length > 0 ? parts : folded;
    if (pieces.length > 0) best = Math.max(best, (PARTIAL * pieces.filter(held).length) / pieces.length);
  }
  // The asked word itself spelt as a row's word or part begins, as a part ("termostáticas" ~ "Thermostatkopf").
  const own = cognateOf(forms[0]![0] ?? '');
  if (best < PARTIAL && row.cognates.some((c) => own.startsWith(c))) best = PARTIAL;
  return best;
}

/** Each word of the job's translations and what it may be in the price list's language. */
export function alternativesOf(translations: QueryTranslation[]): Map<string, string[][]> {
  const byWord = new Map<string, string[][]>();
  for (const translation of translations)
    for (const { word, alternatives } of translation.words) {
      const forms = alternatives.map((a) => wordsOf(a.text)).filter((form) => form.length > 0);
      for (const key of [word, ...word.split(/[\s-]+/)]) {
        const k = normalizeWord(key);
        byWord.set(k, [...(byWord.get(k) ?? []), ...forms]);
      }
    }
  return byWord;
}

export interface ItemMatch<T> {
  candidate: T;
  score: number;
}

/**
 * The row an asked item means, or null when no row holds (nearly: PARTIAL) one of its words and half of the words
 * that any row holds in all: a word no row of the list has ("jährliche", "tauschen", an adjective the dictionaries do
 * not know) tells the rows nothing. Among rows that hold as much, the first (the search's best passage, the list's
 * own order within it).
 */
export function matchItem<T extends { row: PricedRow }>(
  item: AskedItem,
  candidates: T[],
  alternatives: Map<string, string[][]>,
  known: ReadonlySet<string>,
): ItemMatch<T> | null {
  const asked = item.words.flatMap((word) => {
    const own = wordsOf(word);
    return own.map((w) => [[w], ...(alternatives.get(word) ?? alternatives.get(w) ?? [])]);
  });
  if (asked.length === 0) return null;
  const scores = candidates.map((candidate) => {
    const row = rowWords(candidate.row, known);
    return asked.map((forms) => wordScore(forms, row, known));
  });
  const held = asked.filter((_, w) => scores.some((s) => s[w]! > 0)).length;
  let best: ItemMatch<T> | null = null;
  for (const [c, candidate] of candidates.entries()) {
    const score = scores[c]!.reduce((sum, s) => sum + s, 0);
    if (score > (best?.score ?? 0)) best = { candidate, score };
  }
  return best && best.score >= PARTIAL * Math.max(1, held / 2) ? best : null;
}
