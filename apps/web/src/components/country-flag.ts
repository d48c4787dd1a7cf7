import type { Language } from '@werkwissen/shared';

/**
 * A country's flag as its two regional-indicator letters (🇩🇪), drawn by the system's emoji font: no image is
 * fetched from a flag CDN. Where the system has no flag glyphs (Windows), the two letters show, still the country.
 */
export function flagEmoji(isoCode: string): string {
  return String.fromCodePoint(...[...isoCode.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/** The country a language's speakers most likely dial from, for a phone field's first country. */
export const COUNTRY_OF_LANGUAGE: Record<Language, string> = {
  ar: 'SA',
  de: 'DE',
  en: 'GB',
  fr: 'FR',
  it: 'IT',
  pl: 'PL',
  pt: 'PT',
  ru: 'RU',
  uk: 'UA',
};
