import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../apps/server/src/modules/auth/totp.ts';
import { createUser } from '../apps/server/test/support/factories.ts';
import { signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { solveAltcha } from './support/bot-check.ts';
import { openBrowser } from './support/browser.ts';
import { passSecondFactorInBrowser } from './support/second-factor.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer();
});
afterAll(() => t?.close());

describe('signing in with a second factor, and the public feedback page', () => {
  it('makes an administrator set up the authenticator app first, then asks for its code', async () => {
    const admin = await createUser(t, 'Administrator');
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await page.goto(`${t.url}/admin/auth/login`);
      await page.locator('input[name=email]').fill(admin.user.email);
      await page.locator('input[name=password]').fill(admin.password);
      await page.locator('form button[type=submit]').click();
      // Enrolment: the QR code and the key to type in, before any page of the back office.
      await page.getByRole('img', { name: text('en', 'auth.twoFactor.qrAlt') }).waitFor();
      expect(page.url()).toBe(`${t.url}/admin/auth/login`);
      const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
      await page.locator('input[name=second-factor]').fill(totpCode(secret, Date.now()));
      await page.locator('form button[type=submit]').click();
      await page.getByTestId('recovery-codes-continue').waitFor();
      const codes = await page.getByTestId('recovery-codes').locator('li').allTextContents();
      expect(codes).toHaveLength(10);
      await page.getByTestId('recovery-codes-continue').click();
      await page.waitForURL(`${t.url}/admin/dashboard`);

      // Signed out and in again: the password, then the app's code.
      await page.evaluate(() =>
        fetch('/api/v1/auth/logout', {
          method: 'POST',
          headers: { 'x-csrf-token': document.cookie.match(/ww_csrf=([^;]+)/)?.[1] ?? '' },
        }),
      );
      await page.context().clearCookies();
      await page.goto(`${t.url}/admin/auth/login`);
      await page.locator('input[name=email]').fill(admin.user.email);
      await page.locator('input[name=password]').fill(admin.password);
      await page.locator('form button[type=submit]').click();
      await page.getByText(text('en', 'auth.twoFactor.codeIntro')).waitFor();
      await passSecondFactorInBrowser(page, t, admin.user.email);
      await page.waitForURL(`${t.url}/admin/dashboard`);
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('takes an anonymous rating of a public chat after the ALTCHA check', async () => {
    const dm = await signedInDataManager(t);
    const divisionId = (await dm.client.post('/divisions', { name: 'Service' })).body.id as string;
    const chatId = (
      await dm.client.post('/chats', {
        name: 'Kundenfragen',
        visibility: 'public',
        divisionIds: [divisionId],
      })
    ).body.id as string;
    const token = (await dm.client.post(`/chats/${chatId}/share`)).body.shareToken as string;
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await page.goto(`${t.url}/feedback-21chatgpt?chat=${token}`);
      await page
        .getByText(text('en', 'publicFeedback.intro'))
        .waitFor()
        .catch(async (error) => {
          throw new Error(
            `${error}\n${await page.locator('body').textContent()}\n${browser.problems.join('\n')}`,
          );
        });
      // MUI's stars are labels over visually hidden radio inputs.
      const fourStars = await page.getByRole('radio', { name: '4 Stars' }).getAttribute('id');
      await page.locator(`label[for="${fourStars}"]`).click();
      expect(await page.getByRole('radio', { name: '4 Stars' }).isChecked()).toBe(true);
      await page.locator('textarea[name=comment]').fill('Schnell und freundlich');
      await solveAltcha(page);
      await page.getByRole('button', { name: text('en', 'publicFeedback.submit') }).click();
      await page.getByText(text('en', 'publicFeedback.thanks')).waitFor();
      const report = await dm.client.get('/feedback?origin=public');
      expect(report.body.items).toEqual([
        expect.objectContaining({ chatId, rating: 4, comment: 'Schnell und freundlich' }),
      ]);
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
