/**
 * The passage a citation opens, marked on its page: the spans of the page's text layer whose text is part of the
 * passage (a line, a table cell) are highlighted. Text is compared without case, hyphens and spacing, so that a
 * passage whose words the reader joined ("Heizungs-" + "anlage") or whose cells it set apart (" | ") still matches.
 */

/** Spans shorter than this (page numbers, single letters) are never marked on their own. */
const MIN_CHARS = 4;
export const HIGHLIGHT_CLASS = 'pdfHighlight';

const squeeze = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\u00ad\-‐|•]+/gu, '');

/** Marks the spans of `layer` that are part of `passage`; answers the first marked span (to scroll to), or null. */
export function highlightPassage(layer: HTMLElement, passage: string): HTMLElement | null {
  const haystack = squeeze(passage);
  let first: HTMLElement | null = null;
  for (const span of layer.querySelectorAll<HTMLElement>('span')) {
    if (span.querySelector('span')) continue;
    const text = squeeze(span.textContent ?? '');
    if (text.length >= MIN_CHARS && /[\p{L}\p{N}]/u.test(text) && haystack.includes(text)) {
      span.classList.add(HIGHLIGHT_CLASS);
      first ??= span;
    }
  }
  return first;
}

/** The passage a viewer link carries in its fragment (`#passage=...`), or null. */
export function requestedPassage(hash: string): string | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('passage');
  return value ? value : null;
}
