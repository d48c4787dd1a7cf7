import { APP_ROUTES, LANGUAGES } from '@werkwissen/shared';
import { describe, expect, it } from 'vitest';
import { isSignedInText, SIGNED_IN_PAGE_TEXTS, SIGNED_IN_TEXT_GROUPS, textPart } from './text-parts.ts';

type Texts = Record<string, unknown>;
const loadTexts = async (lang: string) =>
  ((await import(`../../../../packages/shared/src/i18n/locales/${lang}.json`)) as { default: Texts }).default;

/** Every key of a locale file, with its text. */
function flatten(texts: Texts, prefix = ''): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(texts).flatMap(([key, value]) =>
      value && typeof value === 'object'
        ? Object.entries(flatten(value as Texts, `${prefix}${key}.`))
        : [[`${prefix}${key}`, value]],
    ),
  );
}

describe('the split of the texts', () => {
  it('names only groups every locale has, so that a renamed group cannot slip into the first part', async () => {
    for (const lang of LANGUAGES) {
      const texts = await loadTexts(lang);
      for (const group of SIGNED_IN_TEXT_GROUPS)
        expect(Object.keys(texts), `${lang}: ${group}`).toContain(group);
      for (const page of SIGNED_IN_PAGE_TEXTS)
        expect(Object.keys(texts.pages as Texts), `${lang}: pages.${page}`).toContain(page);
    }
  });

  it('puts every text in exactly one of the two parts', async () => {
    for (const lang of LANGUAGES) {
      const texts = await loadTexts(lang);
      const first = flatten(textPart(texts, 'first'));
      const signedIn = flatten(textPart(texts, 'signedIn'));
      expect({ ...first, ...signedIn }, lang).toEqual(flatten(texts));
      expect(
        Object.keys(first).filter((key) => key in signedIn),
        lang,
      ).toEqual([]);
      expect(Object.keys(first).filter(isSignedInText), lang).toEqual([]);
    }
  });

  it('leaves the titles of the sign-in pages in the first part (they load without the signed-in texts)', () => {
    const blank = APP_ROUTES.filter(
      (r) => r.layout === 'blank' && !['PublicChat', 'PublicFeedback'].includes(r.page),
    );
    expect(blank.length).toBeGreaterThan(10);
    for (const route of blank) expect(isSignedInText(route.title), route.path).toBe(false);
  });
});
