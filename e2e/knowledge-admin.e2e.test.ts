import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { seriousViolations } from './support/axe.ts';
import { solveAltcha } from './support/bot-check.ts';
import { failureScreenshot, openBrowser, withPageText } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer();
});
afterAll(() => t?.close());

describe('divisions and employees in the browser', () => {
  it('a data manager adds divisions and an employee, who follows the invitation and signs in', async () => {
    const browser = await openBrowser({ locale: 'en-US' });
    const { page } = browser;
    try {
      const dm = await signedInDataManager(t, { language: 'en' });
      const verify = await t.smtp!.waitFor(
        (m) => m.to.includes(dm.email) && m.link?.includes('/verify?') === true,
      );
      await page.goto(verify.link!);
      await page.getByText(text('en', 'messages.emailVerified')).waitFor();
      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(dm.email);
      await page.locator('input[name=password]').fill(dm.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);

      // Divisions
      await page.getByRole('link', { name: text('en', 'nav.divisions') }).click();
      await page.waitForURL(`${t.url}/divisions`);
      await page.getByText(text('en', 'pages.divisions.empty')).waitFor();
      for (const name of ['Heizung', 'Elektro']) {
        await page
          .getByRole('button', { name: text('en', 'pages.divisions.add') })
          .first()
          .click();
        await page.locator('input[name=divisionName]').fill(name);
        await page
          .getByRole('dialog')
          .getByRole('button', { name: text('en', 'common.create') })
          .click();
        await page.getByRole('heading', { name, exact: true }).waitFor();
      }
      await page.getByRole('button', { name: `${text('en', 'pages.divisions.rename')}: Elektro` }).click();
      await page.locator('input[name=divisionName]').fill('Elektro & Licht');
      await page
        .getByRole('dialog')
        .getByRole('button', { name: text('en', 'common.save') })
        .click();
      await page.getByRole('heading', { name: 'Elektro & Licht' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // Employees
      const email = `monteurin-${Date.now()}@firma.example`;
      await page.getByRole('link', { name: text('en', 'nav.employees') }).click();
      await page.waitForURL(`${t.url}/employee-add`);
      await page.getByRole('button', { name: text('en', 'pages.employees.add') }).click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('input[name=email]').fill(email);
      await dialog.locator('input[name=firstName]').fill('Ella');
      await dialog.locator('input[name=lastName]').fill('Wagner');
      await dialog.getByLabel(text('en', 'pages.employees.divisions')).click();
      await page.getByRole('option', { name: 'Heizung' }).click();
      await dialog.getByRole('button', { name: text('en', 'pages.employees.invite') }).click();
      await page.getByText(text('en', 'messages.userAdded')).waitFor();
      await page.getByRole('cell', { name: email, exact: true }).waitFor();
      await page.getByText(text('en', 'pages.employees.statuses.invited')).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // Import from CSV: one good row, one rejected with its reason
      await page.getByRole('button', { name: text('en', 'pages.employees.import.button') }).click();
      await page.getByTestId('import-file').setInputFiles({
        name: 'team.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `email;firstName;lastName;divisions\nben-${Date.now()}@firma.example;Ben;Roth;Heizung\nkaputt;Kim;Kurz;\n`,
        ),
      });
      await page
        .getByText(text('en', 'pages.employees.import.summary', { created: '1', rejected: '1' }))
        .waitFor();
      await page.getByText('Email must be valid!').waitFor();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: text('en', 'common.close') })
        .click();
      await page.getByRole('cell', { name: 'Ben Roth' }).waitFor();

      // The employee follows the invitation
      const invitation = await t.smtp!.waitFor((m) => m.to.includes(email));
      expect(invitation.link).toContain('/setPassword?token=');
      await page.getByTestId('user-menu').click();
      await page.getByTestId('sign-out').click();
      await page.waitForURL(/\/login/);
      await page.goto(invitation.link!);
      await page.locator('input[name=password]').fill('ella-Pass-12');
      await page.locator('input[name=confirmPassword]').fill('ella-Pass-12');
      await solveAltcha(page);
      await page.locator('form button[type=submit]').click();
      // On to the employee sign-in, with the address filled in.
      await page.waitForURL(`${t.url}/employee/login?email=${encodeURIComponent(email)}`);
      expect(await page.locator('input[name=email]').inputValue()).toBe(email);
      await page.locator('input[name=password]').fill('ella-Pass-12');
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/employee/chat`);
      const seen = await page.evaluate(() => fetch('/api/v1/divisions').then((r) => r.json()));
      expect(seen.items.map((d: { name: string }) => d.name)).toEqual(['Heizung']);
      expect(browser.problems).toEqual([]);
    } catch (error) {
      await failureScreenshot(page, 'knowledge-admin-failure.png');
      throw await withPageText(page, error);
    } finally {
      await browser.close();
    }
  });
});
