import { LANGUAGES } from '@werkwissen/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { seriousViolations } from './support/axe.ts';
import { artifactPath, missingKeys, openBrowser } from './support/browser.ts';
import { startAppServer } from './support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer();
});
afterAll(() => t?.close());

/** Opens the app in a language with the translation check on: no English fallback, missing keys collected. */
async function inLanguage(lang: string, options: { colorScheme?: 'light' | 'dark' } = {}) {
  const browser = await openBrowser({ locale: lang === 'uk' ? 'uk-UA' : lang, ...options });
  await browser.context.addInitScript((l: string) => {
    localStorage.setItem('i18n-check', '1');
    localStorage.setItem('language', l);
  }, lang);
  return browser;
}

/** Text that looks like an untranslated key (e.g. "pages.login.title"). */
async function rawKeys(page: Page): Promise<string[]> {
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the rendered (visible) text we check
  const body = await page.locator('body').innerText();
  return body.match(/\b[a-z]+(?:\.[a-zA-Z-]+){1,4}\b/g)?.filter((m) => !/@|\.example/.test(m)) ?? [];
}

describe.each([...LANGUAGES])('sign-in screens in %s', (lang) => {
  it('render login and register with every string translated', async () => {
    const browser = await inLanguage(lang);
    try {
      const { page } = browser;
      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      expect(await missingKeys(page)).toEqual([]);
      expect(await rawKeys(page)).toEqual([]);
      await page.goto(`${t.url}/register`);
      await page.locator('input[name=acceptTerms]').waitFor();
      await page.locator('form button[type=submit]').click();
      await page.locator('.Mui-error').first().waitFor();
      expect(await missingKeys(page)).toEqual([]);
      expect(await rawKeys(page)).toEqual([]);
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('right-to-left', () => {
  it('mirrors the whole layout in Arabic, navigation on the right', async () => {
    const browser = await inLanguage('ar');
    try {
      const { page } = browser;
      const { email, password } = await signedInDataManager(t, { language: 'ar' });
      await page.goto(`${t.url}/login`);
      await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await page.locator('input[name=email]').fill(email);
      await page.locator('input[name=password]').fill(password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);
      await page.getByTestId('plan-card').locator('[role=progressbar]').waitFor();
      await page.getByTestId('vertical-nav').waitFor();
      await page.screenshot({ path: artifactPath('dashboard-ar-rtl.png'), fullPage: true });
      const nav = await page.getByTestId('vertical-nav').boundingBox();
      const width = page.viewportSize()!.width;
      expect(nav!.x).toBeGreaterThan(width / 2);
      expect(await missingKeys(page)).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('theme', () => {
  it('follows a dark colour scheme of the operating system', async () => {
    const browser = await openBrowser({ colorScheme: 'dark' });
    try {
      const { page } = browser;
      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').waitFor();
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe('rgb(37, 41, 60)');
      await page.emulateMedia({ colorScheme: 'light' });
      await expect
        .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor))
        .toBe('rgb(244, 245, 250)');
    } finally {
      await browser.close();
    }
  });
});

describe('accessibility (axe-core)', () => {
  it.each(['en', 'ar'])(
    'finds no serious or critical violation on login, register, dashboard and account settings (%s)',
    async (lang) => {
      const browser = await inLanguage(lang);
      try {
        const { page } = browser;
        const found: string[] = [];
        for (const path of ['/login', '/register']) {
          await page.goto(`${t.url}${path}`);
          await page.locator('form button[type=submit]').waitFor();
          found.push(...(await seriousViolations(page)).map((v) => `${path}: ${v}`));
        }
        const { email, password } = await signedInDataManager(t, { language: lang });
        await page.goto(`${t.url}/login`);
        await page.locator('input[name=email]').fill(email);
        await page.locator('input[name=password]').fill(password);
        await page.locator('form button[type=submit]').click();
        await page.waitForURL(`${t.url}/dashboard`);
        await page.getByTestId('plan-card').locator('[role=progressbar]').waitFor();
        found.push(...(await seriousViolations(page)).map((v) => `/dashboard: ${v}`));
        for (const tab of ['account', 'security', 'api-keys']) {
          await page.goto(`${t.url}/account-settings/${tab}`);
          await page.getByRole('tab', { selected: true }).waitFor();
          await page.waitForTimeout(300);
          found.push(...(await seriousViolations(page)).map((v) => `/account-settings/${tab}: ${v}`));
        }
        expect(found).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
