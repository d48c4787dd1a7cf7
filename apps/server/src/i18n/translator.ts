import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@werkwissen/shared';
import i18next, { type TFunction } from 'i18next';

const localesDir = fileURLToPath(new URL('../../../../packages/shared/src/i18n/locales/', import.meta.url));

const resources = Object.fromEntries(
  LANGUAGES.map((lang) => [
    lang,
    { translation: JSON.parse(readFileSync(`${localesDir}${lang}.json`, 'utf8')) },
  ]),
);

const instance = i18next.createInstance();
await instance.init({
  resources,
  lng: FALLBACK_LANGUAGE,
  fallbackLng: FALLBACK_LANGUAGE,
  interpolation: { escapeValue: false },
  initAsync: false,
  showSupportNotice: false,
} as Parameters<typeof instance.init>[0]);

/** The server's translations: API messages and e-mails, from the same locale files as the web. */
export function translatorFor(lang: Language): TFunction {
  return instance.getFixedT(lang);
}

export function translate(lang: Language, key: string, vars?: Record<string, unknown>): string {
  return instance.getFixedT(lang)(key, vars ?? {}) as string;
}

export function hasTranslation(key: string): boolean {
  return instance.exists(key, { lng: FALLBACK_LANGUAGE });
}

/** A translation as written in the locale file, its `{{placeholders}}` unfilled (English when a language lacks it). */
export function rawTranslation(lang: Language, key: string): string {
  const text =
    instance.getResource(lang, 'translation', key) ??
    instance.getResource(FALLBACK_LANGUAGE, 'translation', key);
  if (typeof text !== 'string') throw new Error(`no translation for ${key}`);
  return text;
}
