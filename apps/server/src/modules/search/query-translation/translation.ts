import type { LanguageCode } from './question-words.ts';

/** A question word and what it may be in the documents' language; weights in (0, 1], the question's own words 1. */
export interface TranslatedWord {
  word: string;
  alternatives: Array<{ text: string; weight: number }>;
}

/** A question carried into one language of the company's passages. */
export interface QueryTranslation {
  /** ISO 639-3 codes of the question and of the passages it is translated for. */
  source: LanguageCode;
  target: LanguageCode;
  via: 'dictionary' | 'model';
  words: TranslatedWord[];
  /** The question's function words ("I", "do"), which the target language must not read as words of its own. */
  functionWords: string[];
}

/** The best alternative of each word, as one text (for the embedder and the answerer). */
export function translationText(translation: QueryTranslation): string {
  return translation.words.map((w) => w.alternatives[0]?.text ?? '').join(' ');
}

/** Every alternative of every word, as one text (for matching the answer's sentences). */
export function translationVocabulary(translations: QueryTranslation[]): string {
  return translations.flatMap((t) => t.words.flatMap((w) => w.alternatives.map((a) => a.text))).join(' ');
}
