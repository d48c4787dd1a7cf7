import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APP_ROUTES } from './manifest.ts';

const en = JSON.parse(readFileSync(new URL('../i18n/locales/en.json', import.meta.url), 'utf8'));
const translated = (key: string) =>
  typeof key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], en) ===
  'string';

describe('the route manifest', () => {
  it('names only translated titles and menu labels, in every area a page is listed', () => {
    const keys = APP_ROUTES.flatMap((r) => [
      r.title,
      ...(r.menu ? [r.menu.label, ...(r.menu.alsoIn ?? []).map((a) => a.label)] : []),
    ]);
    expect(keys.filter((key) => !translated(key))).toEqual([]);
  });

  it('lists a page in another area only once per area, and never in its own', () => {
    for (const r of APP_ROUTES) {
      const areas = (r.menu?.alsoIn ?? []).map((a) => a.area);
      expect(areas).not.toContain(r.area);
      expect(new Set(areas).size).toBe(areas.length);
    }
  });
});
