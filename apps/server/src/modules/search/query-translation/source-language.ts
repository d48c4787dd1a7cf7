import { francAll } from 'franc-min';
import { FUNCTION_WORDS, type LanguageCode, normalizeWord, wordsOf } from './question-words.ts';

/**
 * Letters that only some Latin-script languages use, as evidence for them in a short question. A letter that
 * several of them use ("ö", "ü": German and Turkish) is evidence for each of them, shared: "radyatör fiyatı" is
 * Turkish by its "ı", not German by its "ö".
 */
const LETTERS: Record<LanguageCode, string> = {
  tur: 'çğıöşü',
  pol: 'ąęłńśźż',
  deu: 'äöüß',
  fra: 'éèêàùœç',
  por: 'ãõç',
};
/** What the telling letters of a question give a language, at most. */
const LETTER_EVIDENCE = 2;

/** A language's share of the evidence of the question's telling letters, up to LETTER_EVIDENCE. */
function letterEvidence(question: string, language: LanguageCode, candidates: LanguageCode[]): number {
  const own = LETTERS[language];
  if (!own) return 0;
  let evidence = 0;
  // A capital "İ" is Turkish's, as its dotless "ı" is.
  for (const letter of new Set([...question].map((c) => (c === 'İ' ? 'ı' : c.toLowerCase())))) {
    if (!own.includes(letter)) continue;
    const sharing = candidates.filter((l) => LETTERS[l]?.includes(letter)).length;
    evidence += LETTER_EVIDENCE / sharing;
  }
  return Math.min(LETTER_EVIDENCE, evidence);
}

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
    const score = (franc.get(language) ?? 0) + hits(language) + letterEvidence(question, language, latin);
    if (score > bestScore) [best, bestScore] = [language, score];
  }
  return best;
}
