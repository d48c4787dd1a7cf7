/** The interface languages, in the spec's order of section 9 (`ua` is accepted as `uk`). */
export const LANGUAGES = ['ar', 'de', 'en', 'fr', 'it', 'pl', 'pt', 'ru', 'uk'] as const;
export type Language = (typeof LANGUAGES)[number];

export const FALLBACK_LANGUAGE: Language = 'en';
export const RTL_LANGUAGES: readonly Language[] = ['ar'];

/** Each language's name as its speakers write it, for language switchers (flag-free). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  ar: 'العربية',
  de: 'Deutsch',
  en: 'English',
  fr: 'Français',
  it: 'Italiano',
  pl: 'Polski',
  pt: 'Português',
  ru: 'Русский',
  uk: 'Українська',
};

/** Maps a tag such as `de-AT`, `ua` or `pt_BR` to one of our languages, or undefined. */
export function normalizeLanguage(tag: string | null | undefined): Language | undefined {
  if (!tag) return undefined;
  const base = tag.trim().toLowerCase().split(/[-_]/)[0];
  const mapped = base === 'ua' ? 'uk' : base;
  return (LANGUAGES as readonly string[]).includes(mapped ?? '') ? (mapped as Language) : undefined;
}

/** Picks the best of our languages from an Accept-Language header (quality order). */
export function languageFromAcceptHeader(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag ?? '', q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter(({ q }) => q > 0) // q=0 means "not acceptable"
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const lang = normalizeLanguage(tag);
    if (lang) return lang;
  }
  return undefined;
}

export function isRtl(lang: Language): boolean {
  return RTL_LANGUAGES.includes(lang);
}
