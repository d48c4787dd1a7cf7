import localeLoaders from 'virtual:locale-loaders';
import { FALLBACK_LANGUAGE, isRtl, LANGUAGES, type Language, normalizeLanguage } from '@werkwissen/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadMuiLocale } from '../theme/mui-locale.ts';
import { loadStyleCache } from '../theme/style-cache.ts';
import type { TextPart } from './text-parts.ts';

type Resources = Record<string, unknown>;
/**
 * One chunk per language and part (`text-parts.ts`): only the active language is fetched (English too once a key is
 * missing, `loadFallback`), and its signed-in part only once the shell or a page that needs it loads
 * (`loadSignedInTexts`).
 */
const loaders = localeLoaders as Record<Language, Record<TextPart, () => Promise<{ default: Resources }>>>;

/** The parts loaded or loading, by `language/part` (a failed load is forgotten, so that the next need tries again). */
const loading = new Map<string, Promise<void>>();
/** Whether the signed-in part is wanted: then every language loaded from now on comes with it. */
let signedInTexts = false;
/** Whether a key was missing in the active language, so English (the fallback) is loaded beside it from then on. */
let fallbackWanted = false;

function loadPart(lang: Language, part: TextPart): Promise<void> {
  const key = `${lang}/${part}`;
  let pending = loading.get(key);
  if (!pending) {
    pending = loaders[lang][part]().then(({ default: resources }) => {
      i18next.addResourceBundle(lang, 'translation', resources, true, true);
    });
    pending.catch(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
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
  if (fallbackWanted) void loadPart(FALLBACK_LANGUAGE, 'signedIn');
}

/**
 * A key the active language lacks (the locale tests allow none): English, the fallback, is loaded then, and the
 * components re-render with it when it has arrived (`bindI18nStore`). Until a key is missing, only the active
 * language's texts are downloaded.
 */
function loadFallback(): void {
  if (fallbackWanted) return;
  fallbackWanted = true;
  loadLanguage(FALLBACK_LANGUAGE).catch(() => {
    fallbackWanted = false;
  });
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
    // Every missing key is reported: collected in the check, else the moment to load the English fallback.
    saveMissing: true,
    missingKeyHandler: (_lngs, _ns, key) => (check ? missing.push(key) : loadFallback()),
    supportedLngs: [...LANGUAGES],
    resources: {},
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnNull: false,
    // A part added later (the English fallback after a missing key) re-renders the components that show texts.
    react: { bindI18nStore: 'added' },
  });
  await Promise.all([loadLanguage(lang), loadMuiLocale(lang), loadStyleCache(lang)]);
  await i18next.changeLanguage(lang);
  applyDocumentLanguage(lang);
}

/** Switches the interface language (loading it first) and remembers it on this device. */
export async function changeLanguage(lang: Language): Promise<void> {
  await Promise.all([loadLanguage(lang), loadMuiLocale(lang), loadStyleCache(lang)]);
  await i18next.changeLanguage(lang);
  localStorage.setItem('language', lang);
  applyDocumentLanguage(lang);
}

export { i18next };
