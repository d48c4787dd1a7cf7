import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  signedInDataManager,
  startTestServer,
  type TestServer,
} from '../apps/server/test/support/test-server.ts';
import { openBrowser } from './support/browser.ts';
import { passSecondFactorInBrowser } from './support/second-factor.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
beforeAll(async () => {
  t = await startAppServer();
  browser = await openBrowser({ locale: 'en-US' });
  page = browser.page;
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const path = () => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

async function visit(to: string, expected: string) {
  await page.goto(`${t.url}${to}`);
  await expect.poll(path, { timeout: 15_000 }).toBe(expected);
}

async function signInAs(email: string, password: string, loginPath = '/login') {
  await page.goto(`${t.url}${loginPath}`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.locator('form button[type=submit]').click();
  if (loginPath.startsWith('/admin')) await passSecondFactorInBrowser(page, t, email);
  await expect.poll(path).not.toContain('login');
}

async function signOut() {
  await page.evaluate(() =>
    fetch('/api/v1/auth/logout', {
      method: 'POST',
      headers: { 'x-csrf-token': document.cookie.match(/ww_csrf=([^;]+)/)?.[1] ?? '' },
    }),
  );
  await page.evaluate(() => localStorage.clear());
}

const notFoundHeading = () => page.getByRole('heading', { name: text('en', 'pages.notFound.heading') });

describe('the navigation guard, observed in the address bar (spec section 4)', () => {
  it('sends / to /login keeping the query, for visitors', async () => {
    await visit('/?lang=de', '/login?lang=de');
  });

  it('step 1: /admin without a session goes to the admin login with the return path', async () => {
    await visit('/admin', '/admin/auth/login?to=%2Fadmin');
  });

  it('step 3: public routes pass for visitors', async () => {
    await visit('/forgot-password', '/forgot-password');
    await visit('/token-error', '/token-error');
  });

  it('step 5: the admin invoice list is a 404 while no plans are sold (billing off)', async () => {
    await visit('/admin/invoice/list', '/admin/invoice/list');
    await notFoundHeading().waitFor();
  });

  it('step 6: a stored but empty session is cleared and sent to login', async () => {
    await page.goto(`${t.url}/login`);
    await page.evaluate(() => localStorage.setItem('userData', '{}'));
    await visit('/dashboard', '/login?to=%2Fdashboard');
    expect(await page.evaluate(() => localStorage.getItem('userData'))).toBeNull();
  });

  it('step 7: /chat without a session goes to login with the target path', async () => {
    await visit('/chat', '/login?to=%2Fchat');
  });

  it('step 9: a visitor to a protected page goes to its area login, and back there after signing in', async () => {
    const { email, password } = await signedInDataManager(t, { language: 'en' });
    await visit('/account-settings/security', '/login?to=%2Faccount-settings%2Fsecurity');
    await page.locator('input[name=email]').fill(email);
    await page.locator('input[name=password]').fill(password);
    await page.locator('form button[type=submit]').click();
    await expect.poll(path).toBe('/account-settings/security');
    await visit('/employee/account-settings/account', '/not-authorized');
  });

  it('step 2 and 9: a signed-in user at /admin is sent on, and lands on not-authorized without the permission', async () => {
    await visit('/admin', '/not-authorized');
    await page.getByTestId('back-home').click();
    await expect.poll(path).toBe('/dashboard');
  });

  it('step 8: unauthenticated-only pages send a signed-in user to the root and on to their home', async () => {
    await visit('/login', '/dashboard');
    await visit('/register', '/dashboard');
  });

  it('step 8: a return path with a tab (`//evil.example` to a browser) is not followed: the user goes home', async () => {
    await visit('/login?to=%2F%09%2Fevil.example', '/dashboard');
    await expect.poll(() => page.locator('main').count()).toBeGreaterThan(0);
  });

  it('redirects the template settings and profile pages to the real ones', async () => {
    await visit('/pages/account-settings', '/account-settings/account');
    await visit('/pages/user-profile', '/account-settings/account');
    await visit('/', '/dashboard');
  });

  it('step 10: certificates are a 404, and unknown paths too', async () => {
    await visit('/certificates', '/certificates');
    await notFoundHeading().waitFor();
    await visit('/no/such/page', '/no/such/page');
    await notFoundHeading().waitFor();
    await signOut();
  });

  it('step 2: the administrator at /admin lands on the admin dashboard', async () => {
    await signInAs('admin@test.example', 'admin-pass-1', '/admin/auth/login');
    await visit('/admin', '/admin/dashboard');
    await visit('/redirecting', '/admin/dashboard');
    await signOut();
  });

  it('shows the spec text for a wrong password', async () => {
    await page.goto(`${t.url}/login`);
    await page.locator('input[name=email]').fill('nobody@firma.example');
    await page.locator('input[name=password]').fill('wrong-pass-1');
    await page.locator('form button[type=submit]').click();
    const error = page.getByTestId('login-error');
    // It shows once the server has answered, which takes more than expect.poll's second on a loaded machine.
    await error.waitFor();
    await expect.poll(() => error.textContent()).toBe('Incorrect email or password.');
    expect(browser.problems).toEqual([]);
  });
});

describe('step 4: sign-up pages exist only while sign-up is enabled', () => {
  it('answers 404 on /signup, /start and /register when it is off', async () => {
    const closed = await startTestServer({ env: { SIGNUP_ENABLED: 'false' }, smtp: false });
    try {
      for (const p of ['/signup', '/start', '/register']) {
        await page.goto(`${closed.url}${p}`);
        await notFoundHeading().waitFor();
        expect(new URL(page.url()).pathname).toBe(p);
      }
      await page.goto(`${closed.url}/login`);
      await page.locator('input[name=email]').waitFor();
      expect(await page.getByRole('link', { name: text('en', 'pages.login.register') }).count()).toBe(0);
    } finally {
      await closed.close();
    }
  });

  it('shows the sign-up page when it is on', async () => {
    await visit('/signup', '/signup');
    await page.locator('input[name=acceptTerms]').waitFor();
  });
});
