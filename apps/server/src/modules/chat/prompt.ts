import type { Language, SearchHit } from '@werkwissen/shared';
import type { ModelMessage } from 'ai';
import { LANGUAGE_NAMES } from './question-language.ts';

/**
 * What a model answers, alone, when the passages do not hold the answer: the server then gives the asker the
 * translated "nothing found" answer (stored as no answer, a knowledge gap) instead of the model's wording.
 */
export const NOT_IN_DOCUMENTS = 'NOT_IN_DOCUMENTS';

/** Earlier turns sent with a follow-up question, and how much of each. */
const HISTORY_MESSAGES = 8;
const HISTORY_CHARS = 2000;

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

function passageBlock(hits: SearchHit[]): string {
  return hits
    .map((h, i) => {
      const where = [h.fileName, h.page ? `page ${h.page}` : null, h.headingPath.join(' > ') || null]
        .filter(Boolean)
        .join(', ');
      return `[${i + 1}] (${where})\n${h.text}`;
    })
    .join('\n\n');
}

/**
 * The instruction and conversation sent to a language model: numbered passages it must answer from and cite as
 * [n], the conversation so far (so that follow-up questions work), and the language to answer in.
 */
export function buildPrompt(input: {
  companyName: string | null;
  question: string;
  hits: SearchHit[];
  history: Turn[];
  language: Language;
}): { system: string; messages: ModelMessage[] } {
  const system = [
    `You are the knowledge assistant${input.companyName ? ` of ${input.companyName}` : ''}.`,
    'Answer the question only from the numbered passages below, which come from the company’s own documents.',
    'Give the figure, rule or step that answers it as the passage states it (its numbers, units and codes exactly as written; for a table row, the row with its column names).',
    'After every statement, cite the passage(s) it comes from by their number in square brackets, like [1] or [2][3].',
    `If the passages do not contain what the question asks (another product, code, article or rule than the ones they name), answer only: ${NOT_IN_DOCUMENTS}. Do not guess and do not use outside knowledge.`,
    `Answer in ${LANGUAGE_NAMES[input.language]}, the language of the question. Be concise.`,
    '',
    'Passages:',
    passageBlock(input.hits),
  ].join('\n');
  const history = input.history
    .slice(-HISTORY_MESSAGES)
    .map((t): ModelMessage => ({ role: t.role, content: t.content.slice(0, HISTORY_CHARS) }));
  return { system, messages: [...history, { role: 'user', content: input.question }] };
}

/** The passage numbers an answer cites, in order of first mention, limited to the passages it was given. */
export function citedNumbers(text: string, passageCount: number): number[] {
  const seen: number[] = [];
  for (const m of text.matchAll(/\[(\d{1,2})\]/g)) {
    const n = Number(m[1]);
    if (n >= 1 && n <= passageCount && !seen.includes(n)) seen.push(n);
  }
  return seen;
}
