import { describe, expect, it } from 'vitest';
import { APP_ROUTES } from './manifest.ts';
import { PAGE_NAMES } from './pages.ts';

describe('page names', () => {
  it('lists no page that neither a route nor the router opens', () => {
    const opened = new Set<string>([...APP_ROUTES.map((r) => r.page), 'NotFound']);
    expect(PAGE_NAMES.filter((name) => !opened.has(name))).toEqual([]);
  });
});
