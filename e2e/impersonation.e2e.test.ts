import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  signedInAdmin,
  signedInDataManager,
  type TestServer,
} from '../apps/server/test/support/test-server.ts';
import {
  artifactPath,
  failureScreenshot,
  missingKeys,
  openBrowser,
  withPageText,
} from './support/browser.ts';
import { passSecondFactorInBrowser } from './support/second-factor.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer();
});
afterAll(() => t?.close());

describe.each(['de', 'ar'])('viewing the product as a data manager in %s', (lang) => {
  it('an administrator finds a data manager, opens the detail, views as them under a banner and goes back', async () => {
    const dm = await signedInDataManager(t, { language: lang, lastName: `Kunde-${lang}` });
    const admin = await signedInAdmin(t);
    // The interface speaks the language saved on the account.
    await admin.patch('/auth/me', { language: lang });
    const browser = await openBrowser({ locale: lang });
    const { page } = browser;
    try {
      await page.goto(`${t.url}/admin/auth/login`);
      await page.locator('input[name=email]').fill(ADMIN.email);
      await page.locator('input[name=password]').fill(ADMIN.password);
      await page.locator('form button[type=submit]').click();
      await passSecondFactorInBrowser(page, t, ADMIN.email);
      await page.waitForURL(`${t.url}/admin/dashboard`);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');

      await page.getByRole('link', { name: text(lang, 'admin.users.nav.dataManagers') }).click();
      await page.waitForURL(`${t.url}/admin/users/data-manager`);
      await page.getByLabel(text(lang, 'table.search')).fill(dm.email);
      await page.getByText(dm.email, { exact: true }).waitFor();
      await page.getByRole('link', { name: `${text(lang, 'common.open')}: ${dm.email}` }).click();
      await page.getByRole('heading', { name: `Jörg Kunde-${lang}` }).waitFor();
      await page.getByRole('table', { name: text(lang, 'admin.users.recentSignIns') }).waitFor();

      await page.getByRole('button', { name: text(lang, 'admin.impersonation.start') }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: text(lang, 'admin.impersonation.start') })
        .click();
      await page.waitForURL(`${t.url}/dashboard`);
      const banner = page.getByTestId('impersonation-banner');
      await banner.waitFor();
      expect(await banner.textContent()).toContain(dm.email);
      expect(await banner.isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      await page.screenshot({ path: artifactPath(`impersonation-${lang}.png`) });

      // The banner stays on every page of the user's area.
      await page.goto(`${t.url}/divisions`);
      await banner.waitFor();

      await page.getByRole('button', { name: text(lang, 'admin.impersonation.back') }).click();
      await page.waitForURL(`${t.url}/admin/dashboard`);
      await page.getByRole('link', { name: text(lang, 'admin.users.nav.dataManagers') }).waitFor();
      expect(await banner.count()).toBe(0);
      expect(await missingKeys(page)).toEqual([]);
      expect(browser.problems).toEqual([]);

      const log = (await admin.get('/admin/activity-log?q=Impersonation&pageSize=100')).body.items as Array<{
        action: string;
        changes: {
          before: { impersonating?: { email: string } } | null;
          after: { impersonating?: { email: string } } | null;
        } | null;
      }>;
      const about = log.filter(
        (e) =>
          e.changes?.after?.impersonating?.email === dm.email ||
          e.changes?.before?.impersonating?.email === dm.email,
      );
      expect(about.map((e) => e.action).sort()).toEqual(['endImpersonation', 'startImpersonation']);
    } catch (error) {
      await failureScreenshot(page, `impersonation-failure-${lang}.png`);
      throw await withPageText(page, error);
    } finally {
      await browser.close();
    }
  });
});
