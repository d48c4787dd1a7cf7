import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;

let shared: Promise<Browser> | null = null;

/**
 * How long a page's wait may take (Playwright's own default is 30 s). The browser tests run beside the integration
 * tests on CI's two cores (load 12 to 16): a server's first answer there, or the first page of a language, took more
 * than 30 s. A wait that never ends still fails, later.
 */
const WAIT_MS = 60_000;

/**
 * Debian's Chromium, headless, with the flags this machine needs (no background networking): one per test process,
 * launched on first use. Playwright ends it with the test process.
 */
function sharedBrowser(): Promise<Browser> {
  shared ??= launch().then((browser) => {
    // A crashed browser takes only its own test down: the next one starts another.
    browser.on('disconnected', () => {
      shared = null;
    });
    return browser;
  });
  return shared;
}

function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: set CHROMIUM_PATH or run npm test as root`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A Chromium of its own, for a test that may leave it broken (a document's scripts running in Chromium's own
 * viewer): closing it ends the process, and the shared browser of the other tests never sees it.
 */
export async function openOwnBrowser(options: { locale?: string } = {}) {
  const browser = await launch();
  const context = await browser.newContext({ locale: options.locale ?? 'en-US' });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  return {
    page,
    async close() {
      await browser.close();
    },
  };
}

/**
 * A fresh context of the shared Chromium: its own cookies, storage, locale and viewport, like a new profile, without
 * the start of a Chromium of its own (about a second of CPU each on the loaded CI machine).
 */
export async function openBrowser(
  options: { locale?: string; colorScheme?: 'light' | 'dark'; width?: number } = {},
) {
  const context: BrowserContext = await (await sharedBrowser()).newContext({
    locale: options.locale ?? 'en-US',
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: options.width ?? 1400, height: 900 },
  });
  context.setDefaultTimeout(WAIT_MS);
  const page: Page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (
      m.type() === 'error' &&
      !/Failed to load resource: the server responded with a status of (401|403|404|409|422|429)/.test(
        m.text(),
      )
    ) {
      problems.push(`console error: ${m.text()}`);
    }
  });
  return {
    context,
    page,
    problems,
    async close() {
      await context.close();
    },
  };
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}

/**
 * A screenshot of a failing test's page, for the artifacts. It never throws: when the page itself is gone (a crashed
 * renderer), the test's own error is the one to report, not the screenshot's.
 */
export async function failureScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await page.screenshot({ path: artifactPath(name), ...options }).catch((error: Error) => {
    console.error(`no screenshot ${name}: ${error.message}`);
  });
}

/** Keys the interface looked up but the active language lacks (collected by the app, see apps/web/src/i18n). */
export async function missingKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __i18nMissing?: string[] }).__i18nMissing ?? []);
}

/** Signs a user in through the login form and waits for the page their kind of account lands on. */
export async function signInInBrowser(
  page: Page,
  baseUrl: string,
  user: { email: string; password: string },
  landing = '/dashboard',
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.locator('input[name=email]').fill(user.email);
  await page.locator('input[name=password]').fill(user.password);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL(`${baseUrl}${landing}`);
}

/** A failure already told with its page's text (an outer page does not tell it again). */
class PageFailure extends Error {}

/**
 * A failed wait told with what the page showed: CI keeps neither the screenshot nor the browser, and its summary
 * prints a failure's first line, so the page's visible text (an error alert, a refusal, the bot check) goes there.
 */
export async function withPageText(page: Page, error: unknown): Promise<unknown> {
  if (!(error instanceof Error) || error instanceof PageFailure) return error;
  const shown = await page
    .locator('body')
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the text the page showed
    .innerText({ timeout: 2_000 })
    .catch(() => '(no page)');
  const [first, ...rest] = error.message.split('\n');
  return new PageFailure(
    [`${first} The page showed: ${shown.replace(/\s+/g, ' ').trim().slice(-400)}`, ...rest].join('\n'),
    { cause: error },
  );
}
