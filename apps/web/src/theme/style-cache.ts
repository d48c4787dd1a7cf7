import createCache, { type EmotionCache } from '@emotion/cache';
import { isRtl, type Language } from '@werkwissen/shared';

const ltrCache = createCache({ key: 'mui' });
let rtlCache: EmotionCache | null = null;

/**
 * Loads the right-to-left style cache (stylis' RTL plugin and cssjanus) when a right-to-left language is chosen, so
 * that the other languages' first load does without it. Called with the language's texts, before it is shown.
 */
export async function loadStyleCache(language: Language): Promise<void> {
  if (!isRtl(language) || rtlCache) return;
  rtlCache = (await import('./rtl-cache.ts')).rtlCache;
}

/** The emotion cache of a direction (the left-to-right one until the right-to-left one is loaded). */
export function styleCache(direction: 'ltr' | 'rtl'): EmotionCache {
  return direction === 'rtl' && rtlCache ? rtlCache : ltrCache;
}
