import { francAll } from 'franc-min';
import { FUNCTION_WORDS, type LanguageCode, normalizeWord, wordsOf } from './question-words.ts';

/** Letters that only some Latin-script languages use, as evidence for them in a short question. */
const LETTERS: Record<LanguageCode, RegExp> = {
  tur: /[ışğİ]/u,
  pol: /[ąęłńśźż]/u,
  deu: /[äöüß]/u,
  fra: /[éèêàùœ]/u,
  por: /[ãõ]/u,
};

/**
 * The language a question is written in, among `candidates` (ISO 639-3): by script for Arabic and Cyrillic (the
 * Ukrainian letters і, ї, є, ґ, else Russian), and for Latin script by franc together with the question's function
 * words and telling letters, which decide where a question is too short for franc alone. Null when no candidate
 * fits the script.
 */
export function sourceLanguage(question: string, candidates: Iterable<LanguageCode>): LanguageCode | null {
  const allowed = new Set(candidates);
  if (/\p{Script=Arabic}/u.test(question)) return allowed.has('ara') ? 'ara' : null;
  const words = wordsOf(question).map(normalizeWord);
  const hits = (language: LanguageCode) => words.filter((w) => FUNCTION_WORDS[language]?.has(w)).length;
  if (/\p{Script=Cyrillic}/u.test(question)) {
    const ukrainian = /[іїєґ]/iu.test(question) || (!/[ыэъё]/iu.test(question) && hits('ukr') > hits('rus'));
    const language = ukrainian ? 'ukr' : 'rus';
    return allowed.has(language) ? language : null;
  }
  const latin = [...allowed].filter((l) => !['ara', 'rus', 'ukr', 'bul', 'ell'].includes(l));
  if (latin.length === 0) return null;
  const franc = new Map(francAll(question, { only: latin, minLength: 3 }));
  let best: LanguageCode | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const language of latin) {
    const score = (franc.get(language) ?? 0) + hits(language) + (LETTERS[language]?.test(question) ? 2 : 0);
    if (score > bestScore) [best, bestScore] = [language, score];
  }
  return best;
}
