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
 * Question and function words that tell the Latin-script languages apart in a question too short for franc
 * ("What does it cost?" asked in a German interface is answered in English).
 */
const SHORT_QUESTION_WORDS: Partial<Record<Language, Set<string>>> = {
  en: new Set(
    'what how where when who why which is are does do did the an much many can should of for'.split(' '),
  ),
  de: new Set(
    (
      'was wie wo wann wer warum welche welcher welches ist sind kostet der die das ein eine gibt muss kann man ich wir ' +
      'für vom zum zur im ins am beim mit bei nach von und oder nicht auch noch schon darf dürfen brauch brauche ' +
      'krieg kriege gibts bis ab wieviel viel tun mein meine unser unsere'
    ).split(' '),
  ),
  fr: new Set(
    'quel quelle quels quelles comment où quand qui pourquoi combien est sont le la les un une des coûte faut'.split(
      ' ',
    ),
  ),
  it: new Set(
    'quale quali come dove quando chi perché quanto quanta quanti il lo gli una costa sono serve'.split(' '),
  ),
  pl: new Set('co jak gdzie kiedy kto dlaczego ile jest są czy kosztuje który która które trzeba'.split(' ')),
  pt: new Set('qual quais como onde quando quem porque quanto quanta os as um uma custa são é'.split(' ')),
};

/** The Latin-script language whose question words a short question uses most, if one clearly does. */
function byQuestionWords(question: string): Language | null {
  const words = question.toLowerCase().match(/\p{L}+/gu) ?? [];
  const counts = Object.entries(SHORT_QUESTION_WORDS).map(
    ([lang, set]) => [lang as Language, words.filter((w) => set.has(w)).length] as const,
  );
  counts.sort((a, b) => b[1] - a[1]);
  const [first, second] = counts;
  return first && first[1] > 0 && first[1] > (second?.[1] ?? 0) ? first[0] : null;
}

/**
 * The language to answer in: the question's own when it can be told (by script, by letters only one language uses,
 * by its question and function words, by franc on long questions), else the asker's interface language (also for a
 * language the product does not speak, such as Turkish). Short Latin-script questions are too short for franc.
 */
export function questionLanguage(question: string, fallback: Language): Language {
  if (/\p{Script=Arabic}/u.test(question)) return 'ar';
  if (/\p{Script=Cyrillic}/u.test(question)) {
    if (/[іїєґІЇЄҐ]/u.test(question)) return 'uk';
    if (/[ыэъЫЭЪ]/u.test(question)) return 'ru';
    return fallback === 'uk' ? 'uk' : 'ru';
  }
  // Letters of a language the product does not speak (Turkish ğ, ı, ş): the asker's own language.
  if (/[ğıışİŞĞ]/u.test(question)) return fallback;
  // Letters only one of the Latin-script languages uses.
  if (/[ąćęłńśźżĄĆĘŁŃŚŹŻ]/u.test(question)) return 'pl';
  if (/[äöüßÄÖÜ]/u.test(question)) return 'de';
  const byWords = byQuestionWords(question);
  if (byWords) return byWords;
  const guess = BY_ISO3[franc(question, { minLength: 12, only: Object.keys(BY_ISO3) })];
  if (guess && question.length >= 40) return guess;
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
