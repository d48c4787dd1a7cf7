import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/test/support/factories.ts';
import type { TestServer } from '../apps/server/test/support/test-server.ts';
import { seriousViolations } from './support/axe.ts';
import { solveAltcha } from './support/bot-check.ts';
import { failureScreenshot, openBrowser, withPageText } from './support/browser.ts';
import { passSecondFactorInBrowser } from './support/second-factor.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer();
});
afterAll(() => t?.close());

/** An administrator who works in this language (the app paints in the language saved on the server). */
async function administrator(lang: string) {
  const admin = await createUser(t, 'Administrator');
  await t.server.ctx.db.execute(sql`update users set language = ${lang} where id = ${admin.user.id}`);
  return admin;
}

describe('roles and staff in the browser', () => {
  it.each(['de', 'en', 'ar'])(
    '%s: an administrator creates a role and invites a staff member, who sees exactly what the role allows',
    async (lang) => {
      const browser = await openBrowser({ locale: lang });
      const { page } = browser;
      const tr = (key: string, vars?: Record<string, string>) => text(lang, key, vars);
      const nav = () => page.getByRole('navigation', { name: tr('shell.navigation') });
      try {
        const admin = await administrator(lang);
        await page.goto(`${t.url}/admin/auth/login`);
        await page.locator('input[name=email]').fill(admin.user.email);
        await page.locator('input[name=password]').fill(admin.password);
        await page.locator('form button[type=submit]').click();
        await passSecondFactorInBrowser(page, t, admin.user.email);
        await page.waitForURL(`${t.url}/admin/dashboard`);
        if (lang === 'ar')
          await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');

        // A custom role that reads the feedback report
        const roleName = `Auswertung ${lang} ${Date.now()}`;
        await nav()
          .getByRole('link', { name: tr('admin.roles.nav') })
          .click();
        await page.waitForURL(`${t.url}/admin/roles`);
        await page.getByRole('button', { name: tr('admin.roles.add') }).click();
        const dialog = page.getByRole('dialog');
        await dialog.locator('input[name=name]').fill(roleName);
        await dialog.getByRole('button', { name: tr('common.create') }).click();
        await page.waitForURL(new RegExp(`${t.url}/admin/roles/[0-9a-f-]{36}$`));
        const cell = (state: string) =>
          `${tr('admin.roles.actions.read')} · ${tr('admin.roles.subjects.Feedback')}: ${tr(`admin.roles.states.${state}`)}`;
        await page.getByRole('button', { name: cell('none'), exact: true }).click();
        await page.getByRole('button', { name: cell('can'), exact: true }).waitFor();
        await page.getByRole('button', { name: tr('admin.roles.savePermissions') }).click();
        await page.getByText(tr('admin.roles.saved')).waitFor();
        expect(await seriousViolations(page)).toEqual([]);

        // A staff member invited with it
        const email = `team-${lang}-${Date.now()}@betreiber.example`;
        await nav()
          .getByRole('link', { name: tr('admin.staff.nav') })
          .click();
        await page.waitForURL(`${t.url}/admin/staff`);
        await page.getByRole('button', { name: tr('admin.staff.invite') }).click();
        const invite = page.getByRole('dialog');
        await invite.locator('input[name=email]').fill(email);
        await invite.locator('input[name=firstName]').fill('Lea');
        await invite.locator('input[name=lastName]').fill('Brandt');
        await invite.getByLabel(tr('admin.staff.roles')).click();
        await page.getByRole('option', { name: roleName }).click();
        await invite.getByRole('button', { name: tr('admin.staff.sendInvitation') }).click();
        await page.getByText(tr('admin.staff.invited')).waitFor();
        await page.getByRole('cell', { name: email, exact: true }).waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await page.getByTestId('user-menu').click();
        await page.getByTestId('sign-out').click();
        await page.waitForURL(/\/admin\/auth\/login/);

        // The staff member sets a password from the invitation and signs in
        const invitation = await t.smtp!.waitFor((m) => m.to.includes(email));
        await page.goto(invitation.link!);
        await page.locator('input[name=password]').fill('lea-Pass-123');
        await page.locator('input[name=confirmPassword]').fill('lea-Pass-123');
        await solveAltcha(page);
        await page.locator('form button[type=submit]').click();
        await page.waitForURL(`${t.url}/admin/auth/login?email=${encodeURIComponent(email)}`);
        // On to the back-office sign-in with the address filled in (once the form shows it, it is the one to type in).
        await expect.poll(() => page.locator('input[name=email]').inputValue()).toBe(email);
        await page.locator('input[name=password]').fill('lea-Pass-123');
        expect(await page.locator('input[name=password]').inputValue()).toBe('lea-Pass-123');
        await page.locator('form button[type=submit]').click();
        await passSecondFactorInBrowser(page, t, email);
        await page.waitForURL(`${t.url}/admin/dashboard`);

        // Exactly the menu entries the role allows: the back office's own pages and the feedback report
        await nav()
          .getByRole('link', { name: tr('nav.feedbackReport') })
          .waitFor();
        const labels = await nav().getByRole('link').allTextContents();
        expect(labels.map((l) => l.trim()).sort()).toEqual(
          ['nav.dashboard', 'nav.processingTable', 'nav.feedbackReport', 'nav.accountSettings']
            .map((key) => tr(key))
            .sort(),
        );
        await nav()
          .getByRole('link', { name: tr('nav.feedbackReport') })
          .click();
        await page.waitForURL(`${t.url}/admin/datamanager-feedback`);
        await page.getByRole('heading', { name: tr('pages.feedbackReport.adminTitle') }).waitFor();
        for (const path of ['/admin/roles', '/admin/staff']) {
          await page.goto(`${t.url}${path}`);
          await page.waitForURL(`${t.url}/not-authorized`);
        }
        // Their own account page: /admin/profile
        await page.goto(`${t.url}/admin/profile`);
        await page.waitForURL(`${t.url}/admin/account-settings/account`);
        expect(await page.locator('input[name=firstName]').inputValue()).toBe('Lea');
        expect(browser.problems).toEqual([]);
      } catch (error) {
        await failureScreenshot(page, `roles-staff-${lang}-failure.png`);
        throw await withPageText(page, error);
      } finally {
        await browser.close();
      }
    },
  );
});
