import type { Logger } from 'pino';
import {
  languageModelOf,
  type ProviderConnection,
  type ProviderFetch,
} from '../../ai-providers/model-client.ts';
import { isFunctionWord, type LanguageCode, wordsOf } from './question-words.ts';
import type { QueryTranslation } from './translation.ts';

/** A model's translation weighs nearly as much as the question's own words: it is one reading, not a guess list. */
const MODEL_WEIGHT = 0.9;
/** A translation longer than this is not a translated question (the model explained or answered instead). */
const MAX_CHARS = 600;

const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  ara: 'Arabic',
  deu: 'German',
  eng: 'English',
  fra: 'French',
  ita: 'Italian',
  pol: 'Polish',
  por: 'Portuguese',
  rus: 'Russian',
  tur: 'Turkish',
  ukr: 'Ukrainian',
};

export const languageName = (code: LanguageCode): string | null => LANGUAGE_NAMES[code] ?? null;

export interface ModelTranslationInput {
  connection: ProviderConnection;
  fetch: ProviderFetch;
  log: Logger;
  timeoutMs: number;
}

/**
 * The question translated by the company's model in one short call, for searching the passages of `target`; null
 * when the call fails, times out or answers something that is no translation (the caller then uses the
 * dictionaries).
 */
export async function translateByModel(
  input: ModelTranslationInput,
  question: string,
  source: LanguageCode | null,
  target: LanguageCode,
): Promise<QueryTranslation | null> {
  const targetName = languageName(target);
  if (!targetName) return null;
  try {
    const { generateText } = await import('ai');
    const { text } = await generateText({
      model: await languageModelOf(input.connection, input.fetch),
      system:
        `Translate the user's question into ${targetName} for a search in ${targetName} documents. ` +
        'Keep numbers, codes, product names and words that are already in that language. ' +
        'Reply with the translated question only, on one line.',
      prompt: question,
      temperature: 0,
      maxRetries: 0,
      maxOutputTokens: 200,
      abortSignal: AbortSignal.timeout(input.timeoutMs),
    });
    const translated = text.trim().split('\n')[0]!.trim();
    if (!translated || translated.length > MAX_CHARS) return null;
    const words = wordsOf(translated)
      .filter((w) => !isFunctionWord(w, target))
      .map((w) => ({ word: w, alternatives: [{ text: w, weight: MODEL_WEIGHT }] }));
    if (words.length === 0) return null;
    const functionWords = source ? wordsOf(question).filter((w) => isFunctionWord(w, source)) : [];
    return { source: source ?? 'und', target, via: 'model', words, functionWords };
  } catch (error) {
    input.log.warn(
      { err: error, provider: input.connection.provider },
      'question translation: the model failed, using the dictionaries',
    );
    return null;
  }
}
