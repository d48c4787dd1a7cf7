import { franc } from 'franc-min';

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

export const TEXT_CONFIGS = [
  'german',
  'english',
  'russian',
  'arabic',
  'italian',
  'portuguese',
  'french',
  'simple',
] as const;
export type TextConfig = (typeof TEXT_CONFIGS)[number];

/** The language of a text (ISO 639-3, `und` when unsure) from a sample of at most 20,000 characters. */
export function detectLanguage(text: string): string {
  return franc(text.slice(0, 20_000), { minLength: 20 });
}

export function textConfigFor(language: string): TextConfig {
  return (TEXT_CONFIG_BY_LANGUAGE[language] as TextConfig | undefined) ?? 'simple';
}
