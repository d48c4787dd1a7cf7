import type { Language } from '@werkwissen/shared';
import { franc } from 'franc-min';

const BY_ISO3: Record<string, Language> = {
  arb: 'ar',
  deu: 'de',
  eng: 'en',
  fra: 'fr',
  ita: 'it',
  pol: 'pl',
  por: 'pt',
  rus: 'ru',
  ukr: 'uk',
};

/**
 * The language to answer in: the question's own when it can be told (by script first, then by franc on longer
 * questions), else the asker's interface language. Short Latin-script questions are too short for franc.
 */
export function questionLanguage(question: string, fallback: Language): Language {
  if (/\p{Script=Arabic}/u.test(question)) return 'ar';
  if (/\p{Script=Cyrillic}/u.test(question)) {
    if (/[іїєґІЇЄҐ]/u.test(question)) return 'uk';
    if (/[ыэъЫЭЪ]/u.test(question)) return 'ru';
    return fallback === 'uk' ? 'uk' : 'ru';
  }
  const guess = BY_ISO3[franc(question, { minLength: 12, only: Object.keys(BY_ISO3) })];
  if (guess && question.length >= 25) return guess;
  if (/[äöüß]/i.test(question)) return 'de';
  return fallback;
}

/** The language's own name in English, for the model's instruction. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  ar: 'Arabic',
  de: 'German',
  en: 'English',
  fr: 'French',
  it: 'Italian',
  pl: 'Polish',
  pt: 'Portuguese',
  ru: 'Russian',
  uk: 'Ukrainian',
};
