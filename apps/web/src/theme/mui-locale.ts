import type { Localization } from '@mui/material/locale';
import type { Language } from '@werkwissen/shared';

/**
 * MUI's own texts (accessible names of the Autocomplete's buttons, the Rating's "Empty", pagination, breadcrumbs,
 * the Alert's close button) in the interface language. One small chunk per language, loaded with its locale file;
 * English is MUI's default.
 */
const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Localization }>> = {
  ar: () => import('./mui-locales/ar.ts'),
  de: () => import('./mui-locales/de.ts'),
  fr: () => import('./mui-locales/fr.ts'),
  it: () => import('./mui-locales/it.ts'),
  pl: () => import('./mui-locales/pl.ts'),
  pt: () => import('./mui-locales/pt.ts'),
  ru: () => import('./mui-locales/ru.ts'),
  uk: () => import('./mui-locales/uk.ts'),
};

const loaded = new Map<Language, Localization>();

export async function loadMuiLocale(language: Language): Promise<void> {
  if (language === 'en' || loaded.has(language)) return;
  loaded.set(language, (await loaders[language]()).default);
}

/** The loaded localization of a language (MUI's English until it is loaded). */
export function muiLocale(language: string): Localization | undefined {
  return loaded.get(language as Language);
}
