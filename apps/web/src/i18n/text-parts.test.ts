import { APP_ROUTES, LANGUAGES } from '@werkwissen/shared';
import { describe, expect, it } from 'vitest';
import { SIGNED_IN_TEXT_GROUPS } from './text-parts.ts';

const groupOf = (key: string) => key.split('.')[0]!;
const signedIn = new Set<string>(SIGNED_IN_TEXT_GROUPS);

describe('the split of the texts', () => {
  it('names only groups every locale has, so that a renamed group cannot slip into the first part', async () => {
    for (const lang of LANGUAGES) {
      const { default: texts } = await import(`../../../../packages/shared/src/i18n/locales/${lang}.json`);
      for (const group of SIGNED_IN_TEXT_GROUPS)
        expect(Object.keys(texts), `${lang}: ${group}`).toContain(group);
    }
  });

  it('leaves the titles of the sign-in pages in the first part (they load without the signed-in texts)', () => {
    const blank = APP_ROUTES.filter(
      (r) => r.layout === 'blank' && !['PublicChat', 'PublicFeedback'].includes(r.page),
    );
    expect(blank.length).toBeGreaterThan(10);
    for (const route of blank) expect(signedIn.has(groupOf(route.title)), route.path).toBe(false);
  });
});
