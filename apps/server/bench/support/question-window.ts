import { STOPWORDS } from '../../src/modules/embedding/stopwords.ts';

/** How many consecutive words of a passage make one of bench:chat's (and bench:fulltext's) questions. */
export const QUESTION_WORDS = 8;

/**
 * QUESTION_WORDS consecutive words of a passage's text from a random start, as a question; null when fewer than
 * five of them are not stopwords (such a window is read as a follow-up, or finds nothing to call the provider for).
 */
export function questionWindow(text: string, random: () => number): string | null {
  const words = text.split(/\s+/).filter(Boolean);
  const from = Math.floor(random() * Math.max(1, words.length - QUESTION_WORDS));
  const q = `${words
    .slice(from, from + QUESTION_WORDS)
    .join(' ')
    .replace(/[.,;:!?]+$/, '')}?`;
  const content = (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOPWORDS.has(w));
  return content.length < 5 ? null : q;
}
