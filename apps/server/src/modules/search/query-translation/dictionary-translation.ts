import { ASKING_PHRASES } from '../query-terms.ts';
import type { LemmaHints } from './apertium-lemmas.ts';
import type { Dictionaries } from './dictionaries.ts';
import type { Lexicon, LexiconMatch } from './lexicon.ts';
import {
  isFunctionWord,
  type LanguageCode,
  lookupForms,
  normalizeWord,
  transliterateCyrillic,
  wordsOf,
} from './question-words.ts';
import type { QueryTranslation, TranslatedWord } from './translation.ts';

/**
 * A question translated word by word through the dictionaries: each content word (or two-word phrase a dictionary
 * lists: "sick note", "minimum wage") becomes a group of alternatives in the target language, ranked by how many
 * dictionaries and pivot words agree on them. The search takes the best-matching alternative of each group, so an
 * ambiguous word ("charge": Gebühr, Ladung, Anklage …) costs little when most of its senses are absent from the
 * documents.
 */

/** The best translation of a word weighs this much of the question's own words: it may be a wrong sense. */
const TRANSLATION_WEIGHT = 0.8;
/** Alternatives kept per word, unless the caller asks for more (to choose among them, used-translations.ts). */
export const MAX_ALTERNATIVES = 8;
/** Through the pivot: English words followed per word, and translations of each into the target. */
const PIVOT_WORDS = 3;
const PIVOT_TRANSLATIONS = 12;
/** A direct dictionary's vote, a pivot path's, and a headword found only by its prefix (an inflected word). */
const DIRECT_VOTE = 1;
const PIVOT_VOTE = 0.5;
const PREFIX_FACTOR = 0.7;
/**
 * What a translation earns when the dictionary of the other direction gives the question's word back for it: Ding
 * lists "Kotze" and "geil" before "krank" for "sick", and only "krank" translates back. Ding orders senses
 * alphabetically, so where the word stands among them says nothing.
 */
const BACK_VOTE = 1.5;
/** Senses of the other direction searched for the question's word. */
const BACK_SENSES = 12;
/**
 * What the commonest translation earns over the rarest: how many entries and phrases the other direction has for it
 * (up to COMMON_CAP), on a log scale ("Schlüssel" has dozens, "Keil" for "key" a few).
 */
const COMMON_VOTE = 1;
const COMMON_CAP = 200;
/**
 * Of equally supported translations the shorter is the likelier, and long compounds are rare senses ("Urlaub" before
 * "Urlaubsaufenthalt"): this much less per letter beyond the seventh.
 */
const LENGTH_PENALTY = 0.05;
const PLAIN_LENGTH = 7;
/** The verb's own first sense beside the sense of a verb with its preposition (see above). */
const LITERAL_WEIGHT = 0.5;
/** A transliterated word that no dictionary knows (a German trade term written in Cyrillic). */
const TRANSLITERATION_WEIGHT = 0.4;

interface Candidate {
  votes: number;
  back: number;
  common: number;
  /** A translation of the trade's glossary: ranked with the best (`Lexicon.curated`). */
  curated: boolean;
}

export function translateByDictionaries(
  dictionaries: Dictionaries,
  question: string,
  source: LanguageCode,
  target: LanguageCode,
  /** Dictionary forms of the question's words where a morphological analyser knows them (`ApertiumLemmas`). */
  hints: LemmaHints = new Map(),
  /** Alternatives kept per word, best first. */
  keep = MAX_ALTERNATIVES,
): QueryTranslation | null {
  const { direct, pivot } = dictionaries.routes(source, target);
  const matches = (lexicon: Lexicon, word: string) => lookup(lexicon, word, source, hints);
  const back = new BackTranslation(dictionaries.backward(source, target));
  const backFromPivot = new Map(
    pivot.map((route) => [route.pivot, new BackTranslation(dictionaries.backward(route.pivot, target))]),
  );
  // "how heavy", "jak długo": the adjective asks for an amount and names no topic, as in the search's own words.
  const tokens = wordsOf(question.replace(ASKING_PHRASES, ' ')).flatMap((w) =>
    /\d/.test(w) ? hyphenParts(w) : [w],
  );
  // A capitalised word that a dictionary of the route lists is a word ("Sunday", "Christmas"), not a name (`isName`).
  const firstLexicons = [...direct, ...pivot.map((route) => route.steps[0]!)];
  const listed = (w: string) =>
    singularForms(w, source).some((form) => firstLexicons.some((l) => l.entry(form) !== null));
  const isContent = (w: string, i: number) =>
    !/\d/.test(w) && w.length > 1 && !isFunctionWord(w, source) && !isName(w, i, source, listed);
  // The direct dictionaries' translations of two adjacent words as one entry, and of one word.
  const phraseCandidates = (word: string, next: string) => {
    const candidates = new Map<string, Candidate>();
    for (const lexicon of direct)
      add(candidates, curatedBy(lexicon, phraseOf(lexicon, word, next, source, hints)), DIRECT_VOTE, back);
    return candidates;
  };
  const directCandidates = (word: string) => {
    const candidates = new Map<string, Candidate>();
    for (const m of exactFirst(direct.map((l) => matches(l, word).map((m) => curatedBy(l, m)))))
      add(candidates, m, DIRECT_VOTE, back);
    return candidates;
  };
  const words: TranslatedWord[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const word = tokens[i]!;
    if (!isContent(word, i)) continue;
    const next = tokens[i + 1];
    if (next && isContent(next, i + 1)) {
      const candidates = phraseCandidates(word, next);
      if (candidates.size > 0) {
        words.push(group(`${word} ${next}`, candidates, keep));
        i++;
        continue;
      }
    }
    // A verb with its preposition ("apply for"; the dictionaries list it with its object, "apply for sth") by the
    // two's own sense ("beantragen"), not the verb's other senses ("gelten"); the verb's first sense, read literally,
    // weaker beside it (a dictionary may list only a figurative sense: "pay for sth", "erkaufen").
    if (next && !/\d/.test(next) && isFunctionWord(next, source)) {
      const candidates = phraseCandidates(word, next);
      if (candidates.size > 0) {
        const phrase = group(`${word} ${next}`, candidates, keep);
        const literal = ranked(directCandidates(word))[0]?.[0];
        if (literal && !candidates.has(literal) && phrase.alternatives.length < keep)
          phrase.alternatives.push({ text: literal, weight: LITERAL_WEIGHT * TRANSLATION_WEIGHT });
        words.push(phrase);
        i++;
        continue;
      }
    }
    const candidates = directCandidates(word);
    const firstSteps = pivot.map((route) => matches(route.steps[0]!, word));
    const known = firstSteps.flat().some((m) => m.exact);
    pivot.forEach((route, r) => {
      const inPivot = new Map<string, Candidate>();
      for (const m of firstSteps[r]!) if (m.exact || !known) add(inPivot, m, 1, null);
      for (const [pivotWord] of ranked(inPivot).slice(0, PIVOT_WORDS)) {
        for (const m of route.steps[1]!.word(pivotWord)) {
          const limited = { ...m, translations: m.translations.slice(0, PIVOT_TRANSLATIONS) };
          add(candidates, limited, PIVOT_VOTE, backFromPivot.get(route.pivot)!);
        }
      }
    });
    if (candidates.size > 0) {
      words.push(group(word, candidates, keep));
      continue;
    }
    // A hyphenated word no dictionary lists ("call-out") is looked up by its parts, as a phrase first.
    if (word.includes('-')) {
      tokens.splice(i + 1, 0, ...hyphenParts(word));
      continue;
    }
    const latin = SCRIPT_TARGETS.has(target) ? null : transliterateCyrillic(word);
    if (latin) words.push({ word, alternatives: [{ text: latin, weight: TRANSLITERATION_WEIGHT }] });
  }
  const functionWords = tokens.filter((w) => isFunctionWord(w, source));
  return words.length > 0 ? { source, target, via: 'dictionary', words, functionWords } : null;
}

/**
 * The parts of a hyphenated word: a figure with its unit ("8-hour", "17-year-old", "16-летний") asks about the unit's
 * words, and the figure stays in the question as it is.
 */
const hyphenParts = (word: string) => word.split('-').filter(Boolean);

/** Targets written in another script than Latin: a transliteration into Latin letters means nothing there. */
const SCRIPT_TARGETS = new Set(['ara', 'rus', 'ukr', 'bul', 'ell']);

/** A word and, in English, its singular ("Saturdays", "Sunday's"), as a dictionary's headword may be. */
function singularForms(word: string, source: LanguageCode): string[] {
  const singular = source === 'eng' ? word.replace(/(?:['’]s|s)$/u, '') : word;
  return singular !== word && singular.length > 1 ? [word, singular] : [word];
}

/**
 * A name or a code, searched as written: a capitalised word inside the question of a language that writes its nouns
 * in lower case ("Calora" is no "kalorisch") unless a dictionary lists it (English "Sunday"), a word in capitals
 * ("GB"), a Turkish name with its suffix.
 */
function isName(
  word: string,
  position: number,
  source: LanguageCode,
  listed: (word: string) => boolean,
): boolean {
  if (/^\p{Lu}{2,}$/u.test(word)) return true;
  // Turkish writes a name's suffixes after an apostrophe, first in the question too ("Brandt’ta", "Calora'nın").
  if (source === 'tur' && /^\p{Lu}\p{L}*['’]\p{Ll}+$/u.test(word)) return true;
  return source !== 'deu' && position > 0 && /^\p{Lu}/u.test(word) && !listed(word);
}

/** Forms of a phrase's word tried against a lexicon's two-word entries, each side. */
const PHRASE_FORMS = 6;

/**
 * A lexicon's two-word entry for two adjacent words: as written, else by their dictionary forms, so that an inflected
 * or cliticised phrase finds its entry ("لعامل ماهر" → "عامل ماهر", "квалифицированного рабочего" → "квалифицированный
 * рабочий").
 */
function phraseOf(
  lexicon: Lexicon,
  first: string,
  second: string,
  source: LanguageCode,
  hints: LemmaHints,
): LexiconMatch | null {
  const forms = (word: string) =>
    [
      ...new Set([
        normalizeWord(word),
        ...(hints.get(normalizeWord(word)) ?? []),
        ...lookupForms(word, source),
      ]),
    ].slice(0, PHRASE_FORMS);
  const seconds = forms(second);
  for (const a of forms(first))
    for (const b of seconds) {
      const match = lexicon.phrase(a, b);
      if (match) return match;
    }
  return null;
}

/**
 * The lexicon's entries for a word: by its dictionary forms when the analyser gave some, else trying its own forms
 * (Arabic without clitics, Ukrainian spelt the Russian way, Turkish without suffixes) until one finds any.
 */
function lookup(lexicon: Lexicon, word: string, source: LanguageCode, hints: LemmaHints): LexiconMatch[] {
  for (const lemma of hints.get(normalizeWord(word)) ?? []) {
    const translations = lexicon.entry(lemma);
    if (translations) return [{ key: normalizeWord(lemma), exact: true, translations }];
  }
  const lemmas = hints.get(normalizeWord(word)) ?? [];
  const forms = lookupForms(word, source);
  // A form the dictionary lists as it is (a stem: "talebini" → "talep") before a headword that only shares a prefix
  // with the word as written ("hatası" is no "hatasız").
  for (const form of forms) {
    const translations = lexicon.entry(form);
    if (translations) return [{ key: normalizeWord(form), exact: true, translations }];
  }
  for (const form of forms) {
    const found = lexicon.word(form);
    if (found.length > 0) return found;
  }
  // A derived word ("thermostatiques", "газовый") by the headword it starts with ("thermostat", "газ").
  for (const form of [...lemmas, ...forms]) {
    const found = lexicon.derivedFrom(form);
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * The matches of several lexicons for one word: where any knows the word itself, only those that do (a prefix match
 * of another dictionary is then a different word).
 */
function exactFirst(perLexicon: LexiconMatch[][]): LexiconMatch[] {
  const all = perLexicon.flat();
  return all.some((m) => m.exact) ? all.filter((m) => m.exact) : all;
}

/** Whether, and how early, the dictionaries of the other direction translate a candidate back into the word. */
class BackTranslation {
  private readonly cache = new Map<string, number>();
  private readonly common = new Map<string, number>();
  private readonly lexicons: Lexicon[];
  constructor(lexicons: Lexicon[]) {
    this.lexicons = lexicons;
  }

  /** 0 to 1: how common the candidate is in the dictionaries of its own language. */
  commonness(candidate: string): number {
    if (this.lexicons.length === 0 || candidate.includes(' ')) return 0;
    let common = this.common.get(candidate);
    if (common === undefined) {
      const n = Math.max(...this.lexicons.map((l) => l.commonness(candidate, COMMON_CAP)));
      common = Math.log(1 + n) / Math.log(1 + COMMON_CAP);
      this.common.set(candidate, common);
    }
    return common;
  }

  score(candidate: string, word: string): number {
    if (this.lexicons.length === 0 || candidate.includes(' ')) return 0;
    const key = `${candidate}\t${word}`;
    let score = this.cache.get(key);
    if (score === undefined) {
      score = 0;
      for (const lexicon of this.lexicons) {
        const translations = (lexicon.entry(candidate) ?? []).slice(0, BACK_SENSES);
        if (translations.some((t) => wordsOf(t).some((w) => normalizeWord(w) === word))) score = 1;
      }
      this.cache.set(key, score);
    }
    return score;
  }
}

/** Adds a match's translations to the candidates, the dictionary's first senses weighing a little more. */
function add(
  candidates: Map<string, Candidate>,
  match: LexiconMatch | null,
  weight: number,
  back: BackTranslation | null,
): void {
  if (!match) return;
  const factor = match.exact ? 1 : PREFIX_FACTOR;
  const word = match.key.split(' ')[0]!;
  match.translations.forEach((t, rank) => {
    const c = candidates.get(t) ?? { votes: 0, back: 0, common: 0, curated: false };
    c.votes += (weight * factor) / (1 + 0.05 * rank);
    if (match.curated) c.curated = true;
    if (back && !match.key.includes(' ')) c.back = Math.max(c.back, weight * back.score(t, word));
    if (back) c.common = Math.max(c.common, back.commonness(t));
    candidates.set(t, c);
  });
}

/** A match as its lexicon's: marked when the lexicon is the trade's glossary. */
function curatedBy(lexicon: Lexicon, match: LexiconMatch): LexiconMatch;
function curatedBy(lexicon: Lexicon, match: LexiconMatch | null): LexiconMatch | null;
function curatedBy(lexicon: Lexicon, match: LexiconMatch | null): LexiconMatch | null {
  return match && lexicon.curated ? { ...match, curated: true } : match;
}

/** Candidates best first, with their score scaled by the best one's. */
function ranked(candidates: Map<string, Candidate>): Array<[string, number]> {
  const score = (t: string, c: Candidate) =>
    c.votes +
    BACK_VOTE * c.back +
    COMMON_VOTE * c.common -
    LENGTH_PENALTY * Math.max(0, t.length - PLAIN_LENGTH);
  const scored = [...candidates].map(([t, c]) => [t, Math.max(0.01, score(t, c))] as [string, number]);
  // The glossary's words for a concept name the same thing: each as good as the best ("Anfahrtspauschale" is no
  // rarer sense of "call-out" than "Anfahrt", though longer and less common in the dictionaries).
  const top = Math.max(0.01, ...scored.map(([, v]) => v));
  for (const s of scored) if (candidates.get(s[0])!.curated) s[1] = top;
  scored.sort((a, b) => b[1] - a[1]);
  const best = scored[0]?.[1] ?? 1;
  return scored.map(([t, v]) => [t, v / best]);
}

function group(word: string, candidates: Map<string, Candidate>, keep: number): TranslatedWord {
  return {
    word,
    alternatives: ranked(candidates)
      .slice(0, keep)
      .map(([text, weight]) => ({ text, weight: TRANSLATION_WEIGHT * weight })),
  };
}
