import type { Language, SearchHit } from '@werkwissen/shared';
import { translate } from '../../i18n/translator.ts';
import { STOPWORDS } from '../embedding/stopwords.ts';

/**
 * The answerer of the embedded default, with no model and no network: it quotes, verbatim, the sentences of the
 * retrieved passages that best cover the question's words, cites their passages, and says plainly when none does.
 */

/** Below this share of the question's weight found in the best sentence, nothing counts as an answer. */
export const MIN_COVERAGE = 0.3;
/** Further sentences are quoted when they cover at least this share of what the best one covers. */
const NEAR_BEST = 0.75;
const MAX_SENTENCES = 3;
const MAX_CHARS = 700;
/** A best sentence shorter than this brings the next sentence of its passage along, for context. */
const SHORT_SENTENCE = 80;

export interface ExtractiveAnswer {
  text: string;
  /** The cited passages, `[n]` in the text pointing to `hits[n-1]` of this list. */
  cited: SearchHit[];
  noAnswer: boolean;
}

const fold = (word: string) =>
  word
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/^(ال|وال|بال|لل)(?=\p{L}{3})/u, '');

/**
 * A crude stem that survives most inflection in the nine languages: the folded word's first five letters
 * ("Brenner"/"Brenners", "question"/"questions"); shorter words stay whole.
 */
const stem = (word: string) => word.slice(0, 5);

/** The content words of a text as stems (stopwords dropped; numbers kept). */
export function contentStems(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const content = words.filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\d/.test(w)));
  return (content.length > 0 ? content : words).map((w) => stem(fold(w)));
}

interface Sentence {
  hit: number;
  index: number;
  text: string;
  stems: Set<string>;
}

function sentencesOf(text: string, hit: number, lang: Language): Sentence[] {
  const segmenter = new Intl.Segmenter(lang, { granularity: 'sentence' });
  const out: Sentence[] = [];
  for (const line of text.split(/\n+/)) {
    for (const { segment } of segmenter.segment(line)) {
      const sentence = segment.trim();
      if (sentence.length < 2) continue;
      out.push({ hit, index: out.length, text: sentence, stems: new Set(contentStems(sentence)) });
    }
  }
  return out;
}

interface Scored extends Sentence {
  coverage: number;
}

/** Scores every sentence of the hits by the idf-weighted share of the question's stems it contains. */
export function scoreSentences(
  question: string,
  hits: SearchHit[],
  lang: Language,
  context?: string,
): Scored[] {
  const sentences = hits.flatMap((h, i) => sentencesOf(h.text, i, lang));
  if (sentences.length === 0) return [];
  const main = new Set(contentStems(question));
  const extra = new Set(context ? contentStems(context).filter((s) => !main.has(s)) : []);
  const idf = (s: string) => {
    const df = sentences.reduce((n, x) => n + (x.stems.has(s) ? 1 : 0), 0);
    return Math.log(1 + sentences.length / Math.max(1, df));
  };
  const weights = new Map<string, number>();
  for (const s of main) weights.set(s, idf(s));
  for (const s of extra) weights.set(s, idf(s) / 2);
  const total = [...main].reduce((sum, s) => sum + (weights.get(s) ?? 0), 0) || 1;
  return sentences.map((sentence) => {
    let found = 0;
    for (const [s, w] of weights) if (sentence.stems.has(s)) found += w;
    // A slight preference for the better-ranked passage breaks near-ties.
    const prior = 0.02 * (1 - sentence.hit / hits.length);
    return { ...sentence, coverage: found / total + prior };
  });
}

export function answerExtractively(
  question: string,
  hits: SearchHit[],
  lang: Language,
  context?: string,
): ExtractiveAnswer {
  const scored = scoreSentences(question, hits, lang, context);
  const ranked = [...scored].sort((a, b) => b.coverage - a.coverage || a.hit - b.hit || a.index - b.index);
  const best = ranked[0];
  if (!best || best.coverage < MIN_COVERAGE) {
    return { text: translate(lang, 'answer.noAnswer'), cited: [], noAnswer: true };
  }
  const chosen: Scored[] = [best];
  let chars = best.text.length;
  if (best.text.length < SHORT_SENTENCE) {
    const next = scored.find((s) => s.hit === best.hit && s.index === best.index + 1);
    if (next) {
      chosen.push(next);
      chars += next.text.length;
    }
  }
  for (const s of ranked.slice(1)) {
    if (chosen.length >= MAX_SENTENCES || s.coverage < best.coverage * NEAR_BEST) break;
    if (chosen.includes(s) || chars + s.text.length > MAX_CHARS) continue;
    if (chosen.some((c) => c.text === s.text)) continue;
    chosen.push(s);
    chars += s.text.length;
  }
  // Quote passage by passage, in the order they were first chosen, each passage's sentences in their own order.
  const passageOrder = [...new Set(chosen.map((s) => s.hit))];
  const cited = passageOrder.map((i) => hits[i]!);
  const quotes = passageOrder.map((hit, n) => {
    const own = chosen.filter((s) => s.hit === hit).sort((a, b) => a.index - b.index);
    return `${own.map((s) => s.text).join(' ')} [${n + 1}]`;
  });
  return { text: `${translate(lang, 'answer.intro')}\n\n${quotes.join('\n\n')}`, cited, noAnswer: false };
}
