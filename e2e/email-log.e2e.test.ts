import type { Language } from '@werkwissen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshCode } from '../apps/server/test/support/second-factor.ts';
import {
  ADMIN,
  registration,
  signedInAdmin,
  type TestServer,
} from '../apps/server/test/support/test-server.ts';
import { seriousViolations } from './support/axe.ts';
import { missingKeys, openBrowser } from './support/browser.ts';
import { passSecondFactorInBrowser } from './support/second-factor.ts';
import { startAppServer, text } from './support/server.ts';

/** An installation without SMTP: the operator passes a new company's verification link on by hand. */
let t: TestServer;
beforeAll(async () => {
  t = await startAppServer({}, { smtp: false });
});
afterAll(() => t?.close());

describe.each(['en', 'ar'] as Language[])('the e-mail log in %s', (lang) => {
  it('shows a single-use link masked, reveals it to the administrator with a code, and lists who sends how much', async () => {
    const admin = await signedInAdmin(t);
    expect((await admin.patch('/auth/me', { language: lang })).status).toBe(200);
    const signUp = registration({ language: lang, companyName: `Firma ${lang} ${Date.now()}` });
    const dm = t.client();
    expect((await dm.post('/auth/register', signUp)).status).toBe(201);

    const browser = await openBrowser({ locale: lang });
    await browser.context.addInitScript(() => {
      if (window === window.top) localStorage.setItem('i18n-check', '1');
    });
    const { page } = browser;
    try {
      await page.goto(`${t.url}/admin/auth/login`);
      await page.locator('input[name=email]').fill(ADMIN.email);
      await page.locator('input[name=password]').fill(ADMIN.password);
      await page.locator('form button[type=submit]').click();
      await passSecondFactorInBrowser(page, t, ADMIN.email);
      await page.waitForURL(`${t.url}/admin/dashboard`);

      await page.goto(`${t.url}/admin/emails`);
      const row = page.getByRole('row').filter({ hasText: signUp.email as string });
      await row.getByText(text(lang, 'admin.emails.statuses.not_sent'), { exact: true }).waitFor();
      await row.getByRole('link').click();
      await page.getByText(text(lang, 'admin.emails.hiddenLink')).waitFor();
      await page.getByRole('tab', { name: text(lang, 'admin.emails.text') }).click();
      await page.getByText(/verify\?token=••••••••/).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('button', { name: text(lang, 'admin.emails.revealLink') }).click();
      const dialog = page.getByRole('dialog', { name: text(lang, 'admin.emails.revealTitle') });
      await dialog.getByLabel(text(lang, 'auth.twoFactor.code')).fill(await freshCode(t, ADMIN.email));
      await dialog.getByRole('button', { name: text(lang, 'admin.emails.revealLink') }).click();
      const shown = dialog.getByTestId('revealed-link');
      await shown.waitFor();
      const link = await shown.inputValue();
      expect(link).toMatch(/\/verify\?token=[\w-]{43}$/);
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: text(lang, 'common.close') }).click();

      // The link passed on confirms the address; the company's invitations then count against its mail limits.
      expect(
        (await t.client().post('/auth/verify-email', { token: new URL(link).searchParams.get('token') }))
          .status,
      ).toBe(200);
      const login = await dm.post('/auth/login', {
        email: signUp.email,
        password: signUp.password,
        area: 'user',
      });
      expect(login.status).toBe(200);
      const invited = await dm.post('/employees', {
        email: `ma-${lang}-${Date.now()}@firma.example`,
        firstName: 'Mia',
        lastName: 'Koch',
        language: lang,
        divisionIds: [],
      });
      expect(invited.status).toBe(201);

      await page.goto(`${t.url}/admin/emails`);
      await page.getByRole('heading', { name: text(lang, 'admin.emails.senders.title') }).waitFor();
      const sender = page.getByRole('row').filter({ hasText: signUp.companyName as string });
      await sender.getByText(text(lang, 'plans.trial')).waitFor();
      expect(await sender.textContent()).toContain(
        text(lang, 'admin.emails.senders.usage', { used: '1', max: '20' }),
      );
      expect(await seriousViolations(page)).toEqual([]);
      expect(await missingKeys(page)).toEqual([]);
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
