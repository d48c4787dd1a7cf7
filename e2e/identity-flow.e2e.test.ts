import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../apps/server/test/support/test-server.ts';
import { solveAltcha } from './support/bot-check.ts';
import { failureScreenshot, openBrowser, withPageText } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer();
});
afterAll(() => t?.close());

const LOCALES = { de: 'de-DE', en: 'en-US', ar: 'ar' } as const;

describe.each(Object.entries(LOCALES))('the whole identity flow in %s', (lang, locale) => {
  it('registers, verifies, signs in, changes the password, signs out and in again, moves to a new e-mail address, and manages an API key', async () => {
    const browser = await openBrowser({ locale });
    const { page } = browser;
    const email = `flow-${lang}-${Date.now()}@firma.example`;
    try {
      // Register
      await page.goto(`${t.url}/register`);
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
      await page.locator('input[name=email]').fill(email);
      await page.locator('input[name=firstName]').fill('Lina');
      await page.locator('input[name=lastName]').fill('Haddad');
      await page.locator('input[name=companyName]').fill('Haddad Sanitär');
      const phone = page.locator('input[name=telephone]');
      await phone.click();
      await phone.press('ControlOrMeta+a');
      await phone.pressSequentially('+49 151 23456789');
      await page.locator('input[name=password]').fill('erstes-Pass-1');
      await page.locator('input[name=confirmPassword]').fill('erstes-Pass-1');
      await page.locator('input[name=acceptTerms]').check();
      await solveAltcha(page);
      await page.locator('form button[type=submit]').click();
      await page.getByText(text(lang, 'pages.register.done', { email })).waitFor();

      // Verify from the real mail
      const mail = await t.smtp!.waitFor((m) => m.to.includes(email));
      expect(mail.link).toContain('/verify?token=');
      await page.goto(mail.link!);
      await page.getByText(text(lang, 'messages.emailVerified')).waitFor();

      // Sign in
      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(email);
      await page.locator('input[name=password]').fill('erstes-Pass-1');
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);
      // The navbar shows the company (the dashboard's plan card names it too, once its data arrives).
      await page.getByRole('banner').getByText('Haddad Sanitär').waitFor();

      // Change the password
      await page.goto(`${t.url}/account-settings/security`);
      const passwordForm = page.getByRole('form', {
        name: text(lang, 'pages.accountSettings.changePassword'),
      });
      await passwordForm.locator('input[name=currentPassword]').fill('erstes-Pass-1');
      await passwordForm.locator('input[name=password]').fill('zweites-Pass-2');
      await passwordForm.locator('input[name=confirmPassword]').fill('zweites-Pass-2');
      await passwordForm.locator('button[type=submit]').click();
      await page.getByText(text(lang, 'messages.passwordChanged')).waitFor();

      // Sign out, then the old password fails with the spec's text and the new one works
      await page.getByTestId('user-menu').click();
      await page.getByTestId('sign-out').click();
      await page.waitForURL(`${t.url}/login?to=%2Faccount-settings%2Fsecurity`);
      await page.locator('input[name=email]').fill(email);
      await page.locator('input[name=password]').fill('erstes-Pass-1');
      await page.locator('form button[type=submit]').click();
      await expect
        .poll(() => page.getByTestId('login-error').textContent())
        .toBe(text(lang, 'errors.INVALID_CREDENTIALS'));
      await page.locator('input[name=password]').fill('zweites-Pass-2');
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/account-settings/security`);

      // Move the account to a new address: nothing changes until the link mailed there is opened
      const newEmail = `neu-${lang}-${Date.now()}@firma.example`;
      const emailForm = page.getByRole('form', { name: text(lang, 'pages.accountSettings.changeEmail') });
      await emailForm.locator('input[name=email]').fill(newEmail);
      await emailForm.locator('input[name=currentPassword]').fill('zweites-Pass-2');
      await emailForm.locator('button[type=submit]').click();
      await page.getByText(text(lang, 'messages.emailChangeSent', { email: newEmail })).waitFor();
      const confirmation = await t.smtp!.waitFor((m) => m.to.includes(newEmail));
      await page.goto(confirmation.link!);
      await page.getByText(text(lang, 'messages.emailChanged', { email: newEmail })).waitFor();
      await page.goto(`${t.url}/account-settings/account`);
      await expect
        .poll(() => page.locator('input[type=email], input[disabled]').first().inputValue())
        .toBe(newEmail);
      await t.smtp!.waitFor((m) => m.to.includes(email) && m.text.includes(newEmail));

      // Create an API key, use it, revoke it
      await page.goto(`${t.url}/account-settings/api-keys`);
      await page.getByRole('button', { name: text(lang, 'pages.apiKeys.create') }).click();
      await page.getByRole('dialog').locator('input').first().fill('Export-Skript');
      await page
        .getByRole('button', { name: text(lang, 'pages.apiKeys.createConfirm'), exact: true })
        .click();
      const token = (await page.getByTestId('new-api-key-token').textContent())!;
      expect(token).toMatch(/^ww_/);
      const me = await fetch(`${t.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      await page.getByRole('cell', { name: 'Export-Skript', exact: true }).waitFor();
      await page
        .getByRole('button', { name: `${text(lang, 'pages.apiKeys.revoke')}: Export-Skript` })
        .click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: text(lang, 'pages.apiKeys.revoke') })
        .click();
      await page.getByText(text(lang, 'pages.apiKeys.empty')).waitFor();
      const after = await fetch(`${t.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(after.status).toBe(401);
      expect(browser.problems).toEqual([]);
    } catch (error) {
      await failureScreenshot(page, `identity-flow-${lang}-failure.png`);
      throw await withPageText(page, error);
    } finally {
      await browser.close();
    }
  });
});
