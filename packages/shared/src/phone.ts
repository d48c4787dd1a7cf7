import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Language } from './i18n/languages.ts';

/**
 * A phone number in E.164 ("+4915123456789": country code, national number without its trunk zero, no spaces), read
 * with libphonenumber-js: an international number ("+49 0151 23456789", "0049 151 23456789") as it is, a national
 * one ("0151 23456789") in `country`. Null when it is no valid number of any country.
 */
export function toE164(input: string, country?: string | null): string | null {
  const text = input.trim().replace(/^00(?=[1-9])/, '+');
  const region = country?.toUpperCase();
  const defaultCountry = region && isSupportedCountry(region) ? (region as CountryCode) : undefined;
  if (!text.startsWith('+') && !defaultCountry) return null;
  const parsed = parsePhoneNumberFromString(text, defaultCountry ? { defaultCountry } : undefined);
  return parsed?.isValid() ? parsed.number : null;
}

/** An E.164 number as people read it ("+49 1512 3456789"); anything else as it is stored. */
export function formatPhone(phone: string): string {
  const parsed = /^\+\d+$/.test(phone) ? parsePhoneNumberFromString(phone) : undefined;
  return parsed?.isValid() ? parsed.formatInternational() : phone;
}

/** The country a language's speakers most likely dial from: a phone field's first country, a national number's. */
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

/** The country of a number given with its country code ("+48…", or WhatsApp's digits "48…"). */
export function countryOfPhone(phone: string): string | null {
  return parsePhoneNumberFromString(phone.startsWith('+') ? phone : `+${phone}`)?.country ?? null;
}

/** The interface language most people of a country read, among ours; null for other countries. */
const LANGUAGE_OF_COUNTRY: Record<string, Language> = {
  DE: 'de',
  AT: 'de',
  LI: 'de',
  CH: 'de',
  LU: 'de',
  GB: 'en',
  IE: 'en',
  US: 'en',
  CA: 'en',
  AU: 'en',
  NZ: 'en',
  MT: 'en',
  FR: 'fr',
  BE: 'fr',
  MC: 'fr',
  SN: 'fr',
  CI: 'fr',
  IT: 'it',
  SM: 'it',
  VA: 'it',
  PL: 'pl',
  PT: 'pt',
  BR: 'pt',
  AO: 'pt',
  MZ: 'pt',
  RU: 'ru',
  BY: 'ru',
  KZ: 'ru',
  KG: 'ru',
  UA: 'uk',
  SA: 'ar',
  AE: 'ar',
  EG: 'ar',
  JO: 'ar',
  LB: 'ar',
  SY: 'ar',
  IQ: 'ar',
  KW: 'ar',
  QA: 'ar',
  BH: 'ar',
  OM: 'ar',
  YE: 'ar',
  LY: 'ar',
  TN: 'ar',
  DZ: 'ar',
  MA: 'ar',
  SD: 'ar',
  PS: 'ar',
};

/** The language a number's country suggests (a guess for someone we do not know), or null. */
export function languageOfPhone(phone: string): Language | null {
  const country = countryOfPhone(phone);
  return (country && LANGUAGE_OF_COUNTRY[country]) || null;
}
