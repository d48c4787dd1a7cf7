import localeLoaders from 'virtual:locale-loaders';
import { FALLBACK_LANGUAGE, isRtl, LANGUAGES, type Language, normalizeLanguage } from '@werkwissen/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadMuiLocale } from '../theme/mui-locale.ts';
import { loadStyleCache } from '../theme/style-cache.ts';
import type { TextPart } from './text-parts.ts';

type Resources = Record<string, unknown>;
/**
 * One chunk per language and part (`text-parts.ts`): only the active language (and English for missing keys) is
 * fetched, and its signed-in part only once the shell or a page that needs it loads (`loadSignedInTexts`).
 */
const loaders = localeLoaders as Record<Language, Record<TextPart, () => Promise<{ default: Resources }>>>;

const loaded = new Set<string>();
/** Whether the signed-in part is wanted: then every language loaded from now on comes with it. */
let signedInTexts = false;

async function loadPart(lang: Language, part: TextPart): Promise<void> {
  const key = `${lang}/${part}`;
  if (loaded.has(key)) return;
  const resources = (await loaders[lang][part]()).default;
  i18next.addResourceBundle(lang, 'translation', resources, true, true);
  loaded.add(key);
}

function loadLanguage(lang: Language): Promise<unknown> {
  return Promise.all([loadPart(lang, 'first'), signedInTexts ? loadPart(lang, 'signedIn') : null]);
}

/**
 * The texts of the signed-in shell and pages, in the active language and the English fallback; the shell's and the
 * public chat's lazy imports wait for it, so that no page shows a key.
 */
export async function loadSignedInTexts(): Promise<void> {
  signedInTexts = true;
  const lang = (normalizeLanguage(i18next.language) ?? FALLBACK_LANGUAGE) as Language;
  await loadPart(lang, 'signedIn');
  if (localStorage.getItem('i18n-check') !== '1') void loadPart(FALLBACK_LANGUAGE, 'signedIn');
}

function applyDocumentLanguage(lang: Language): void {
  document.documentElement.lang = lang;
  document.documentElement.dir = isRtl(lang) ? 'rtl' : 'ltr';
}

/**
 * Picks the language: the signed-in user's saved choice, else the one chosen on this device, else the browser's if it
 * is one of ours, else the installation's default (decisions in design/product.md).
 */
export function pickLanguage(userLanguage: string | undefined, fallback: Language): Language {
  const candidates = [userLanguage, localStorage.getItem('language'), ...navigator.languages];
  for (const c of candidates) {
    const lang = normalizeLanguage(c);
    if (lang) return lang;
  }
  return fallback;
}

/** What `GET /auth/me` said at start: the saved user (their language), a refused session, or nothing (no session, offline). */
export type StartSession = { userData: { language: string } } | 'refused' | undefined;

/**
 * The language of the first paint. The server's saved choice wins over the copy stored on this device (changed on
 * another device, the stored one is stale: rendering it and switching later made the interface flip); without an
 * answer the stored copy is the best guess; a refused session has no language of its own.
 */
export function startLanguage(
  confirmed: StartSession,
  storedLanguage: string | undefined,
  fallback: Language,
): Language {
  if (confirmed === 'refused') return pickLanguage(undefined, fallback);
  return pickLanguage(normalizeLanguage(confirmed?.userData.language) ?? storedLanguage, fallback);
}

export async function initI18n(lang: Language): Promise<void> {
  // A translation check (used by the browser tests): no English fallback, and every missing key is collected.
  const check = localStorage.getItem('i18n-check') === '1';
  const missing: string[] = [];
  if (check) (window as unknown as { __i18nMissing: string[] }).__i18nMissing = missing;
  await i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: check ? false : FALLBACK_LANGUAGE,
    saveMissing: check,
    missingKeyHandler: (_lngs, _ns, key) => missing.push(key),
    supportedLngs: [...LANGUAGES],
    resources: {},
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await Promise.all([loadLanguage(lang), loadMuiLocale(lang), loadStyleCache(lang)]);
  await i18next.changeLanguage(lang);
  applyDocumentLanguage(lang);
  // English only backs up a missing key (the locale tests allow none), so it does not hold up the first paint.
  if (!check) void loadLanguage(FALLBACK_LANGUAGE);
}

/** Switches the interface language (loading it first) and remembers it on this device. */
export async function changeLanguage(lang: Language): Promise<void> {
  await Promise.all([loadLanguage(lang), loadMuiLocale(lang), loadStyleCache(lang)]);
  await i18next.changeLanguage(lang);
  localStorage.setItem('language', lang);
  applyDocumentLanguage(lang);
}

export { i18next };
