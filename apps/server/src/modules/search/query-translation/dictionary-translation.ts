import type { Dictionaries } from './dictionaries.ts';
import type { Lexicon, LexiconMatch } from './lexicon.ts';
import {
  isFunctionWord,
  type LanguageCode,
  lookupForms,
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

/** Alternatives kept per word. */
const MAX_ALTERNATIVES = 6;
/** Through the pivot: English words followed per word, and translations of each into the target. */
const PIVOT_WORDS = 3;
const PIVOT_TRANSLATIONS = 6;
/** A direct dictionary's vote, a pivot path's, and a headword found only by its prefix (an inflected word). */
const DIRECT_VOTE = 1;
const PIVOT_VOTE = 0.5;
const PREFIX_FACTOR = 0.7;
/** A transliterated word that no dictionary knows (a German trade term written in Cyrillic). */
const TRANSLITERATION_WEIGHT = 0.5;

export function translateByDictionaries(
  dictionaries: Dictionaries,
  question: string,
  source: LanguageCode,
  target: LanguageCode,
): QueryTranslation | null {
  const { direct, pivot } = dictionaries.routes(source, target);
  const tokens = wordsOf(question);
  const isContent = (w: string) => !/\d/.test(w) && w.length > 1 && !isFunctionWord(w, source);
  const words: TranslatedWord[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const word = tokens[i]!;
    if (!isContent(word)) continue;
    const next = tokens[i + 1];
    if (next && isContent(next)) {
      const votes = new Map<string, number>();
      for (const lexicon of direct) vote(votes, lexicon.phrase(word, next), DIRECT_VOTE);
      if (votes.size > 0) {
        words.push(group(`${word} ${next}`, votes));
        i++;
        continue;
      }
    }
    const votes = new Map<string, number>();
    for (const lexicon of direct) for (const m of matches(lexicon, word, source)) vote(votes, m, DIRECT_VOTE);
    for (const route of pivot) {
      const [first, second] = route.steps as [Lexicon, Lexicon];
      const english = new Map<string, number>();
      for (const m of matches(first, word, source)) vote(english, m, 1);
      for (const [pivotWord, weight] of top(english, PIVOT_WORDS)) {
        for (const m of second.word(pivotWord)) {
          vote(
            votes,
            { ...m, translations: m.translations.slice(0, PIVOT_TRANSLATIONS) },
            PIVOT_VOTE * weight,
          );
        }
      }
    }
    if (votes.size > 0) {
      words.push(group(word, votes));
      continue;
    }
    const latin =
      target === 'ara' || target === 'rus' || target === 'ukr' ? null : transliterateCyrillic(word);
    if (latin) words.push({ word, alternatives: [{ text: latin, weight: TRANSLITERATION_WEIGHT }] });
  }
  return words.length > 0 ? { source, target, via: 'dictionary', words } : null;
}

/** The lexicon's entries for a word, trying its forms (Arabic without clitics) until one finds any. */
function matches(lexicon: Lexicon, word: string, source: LanguageCode): LexiconMatch[] {
  for (const form of lookupForms(word, source)) {
    const found = lexicon.word(form);
    if (found.length > 0) return found;
  }
  return [];
}

/** Adds a match's translations to the votes, the dictionary's first senses weighing a little more. */
function vote(votes: Map<string, number>, match: LexiconMatch | null, weight: number): void {
  if (!match) return;
  const factor = match.exact ? 1 : PREFIX_FACTOR;
  match.translations.forEach((t, rank) => {
    votes.set(t, (votes.get(t) ?? 0) + (weight * factor) / (1 + 0.1 * rank));
  });
}

function top(votes: Map<string, number>, n: number): Array<[string, number]> {
  const sorted = [...votes].sort((a, b) => b[1] - a[1]);
  const best = sorted[0]?.[1] ?? 1;
  return sorted.slice(0, n).map(([t, v]) => [t, v / best]);
}

function group(word: string, votes: Map<string, number>): TranslatedWord {
  return { word, alternatives: top(votes, MAX_ALTERNATIVES).map(([text, weight]) => ({ text, weight })) };
}
