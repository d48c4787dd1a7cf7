import { franc } from 'franc-min';
import type { TextConfig } from '../../db/schema/index.ts';

/** PostgreSQL full-text configurations by ISO 639-3 code; every other language uses `simple`. */
const TEXT_CONFIG_BY_LANGUAGE: Record<string, string> = {
  deu: 'german',
  eng: 'english',
  rus: 'russian',
  arb: 'arabic',
  ita: 'italian',
  por: 'portuguese',
  fra: 'french',
};

/** The language of a text (ISO 639-3, `und` when unsure) from a sample of at most 20,000 characters. */
export function detectLanguage(text: string): string {
  return franc(text.slice(0, 20_000), { minLength: 20 });
}

export function textConfigFor(language: string): TextConfig {
  return (TEXT_CONFIG_BY_LANGUAGE[language] as TextConfig | undefined) ?? 'simple';
}

/**
 * How numbers read in a language (a BCP 47 tag for number formatting: decimal comma and group separator): German,
 * French, Italian, Portuguese, Russian, Ukrainian, Polish, Spanish and Dutch by their own conventions; every other
 * language, and a text whose language is unsure, the English way.
 */
const NUMBER_LOCALE_BY_LANGUAGE: Record<string, string> = {
  deu: 'de',
  fra: 'fr',
  ita: 'it',
  por: 'pt',
  rus: 'ru',
  ukr: 'uk',
  pol: 'pl',
  spa: 'es',
  nld: 'nl',
};

export function numberLocaleOf(language: string): string {
  return NUMBER_LOCALE_BY_LANGUAGE[language] ?? 'en';
}
