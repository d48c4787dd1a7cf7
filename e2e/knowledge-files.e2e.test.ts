import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, waitForFile } from '../apps/server/test/support/documents.ts';
import {
  signedInAdmin,
  signedInDataManager,
  type TestServer,
} from '../apps/server/test/support/test-server.ts';
import { seriousViolations } from './support/axe.ts';
import { solveAltcha } from './support/bot-check.ts';
import { failureScreenshot, openBrowser, withPageText } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';
import { uploadDocxThroughDialog } from './support/upload.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer();
});
afterAll(() => t?.close());

describe('uploads and search in the browser', () => {
  it('a data manager uploads a .docx, watches it become ready and finds it; an employee finds only their divisions', async () => {
    const browser = await openBrowser({ locale: 'en-US' });
    const { page } = browser;
    try {
      const dm = await signedInDataManager(t, { language: 'en' });
      const verify = await t.smtp!.waitFor(
        (m) => m.to.includes(dm.email) && m.link?.includes('/verify?') === true,
      );
      await dm.client.post('/auth/verify-email', { token: new URL(verify.link!).searchParams.get('token') });
      const heizung = (await dm.client.post('/divisions', { name: 'Heizung' })).body.id as string;
      const buero = (await dm.client.post('/divisions', { name: 'Büro' })).body.id as string;
      const payroll = await dm.client.upload(`/divisions/${buero}/files`, [
        {
          name: 'Gehälter.docx',
          content: await makeDocx([{ text: 'Die Gehälter werden am Monatsende überwiesen.' }]),
        },
      ]);
      await waitForFile(dm.client, payroll.body.results[0].file.id);

      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(dm.email);
      await page.locator('input[name=password]').fill(dm.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);
      await page.getByRole('link', { name: text('en', 'nav.divisions') }).click();
      await page.getByRole('link', { name: `${text('en', 'pages.divisions.openFiles')}: Heizung` }).click();
      await page.waitForURL(`${t.url}/divisions/${heizung}`);
      await page
        .getByRole('heading', { name: text('en', 'pages.files.heading', { division: 'Heizung' }) })
        .waitFor();

      // Upload through the dialog and watch the file reach "ready" in the list
      const docx = await makeDocx([
        { heading: 'Wartung der Wärmepumpe' },
        { text: 'Der Filter der Wärmepumpe wird alle sechs Monate gereinigt.' },
      ]);
      await uploadDocxThroughDialog(page, 'Wartung.docx', docx);
      expect(await seriousViolations(page)).toEqual([]);

      // Search from the navigation
      await page.getByRole('link', { name: text('en', 'nav.search') }).click();
      await page.waitForURL(`${t.url}/search`);
      await page.locator('input[name=q]').fill('Wie oft wird der Filter gereinigt?');
      await page.locator('input[name=q]').press('Enter');
      const hit = page.getByTestId('search-hit').first();
      await hit.getByText('Wartung.docx').waitFor();
      await hit.getByText(/alle sechs Monate/).waitFor();

      // The completion mail is in the outbox
      const admin = await signedInAdmin(t);
      const mails = (await admin.get(`/admin/emails?q=${encodeURIComponent(dm.email)}&pageSize=100`)).body
        .items;
      expect(mails.some((m: { subject: string }) => /has been processed/.test(m.subject))).toBe(true);

      // An employee of "Heizung" finds its passages and nothing of "Büro"
      const email = `monteur-${Date.now()}@firma.example`;
      await dm.client.post('/employees', {
        email,
        firstName: 'Kai',
        lastName: 'Berg',
        language: 'en',
        divisionIds: [heizung],
      });
      const invitation = await t.smtp!.waitFor(
        (m) => m.to.includes(email) && m.link?.includes('/setPassword?') === true,
      );
      await page.getByTestId('user-menu').click();
      await page.getByTestId('sign-out').click();
      await page.waitForURL(/\/login/);
      await page.goto(invitation.link!);
      await page.locator('input[name=password]').fill('kai-Pass-123');
      await page.locator('input[name=confirmPassword]').fill('kai-Pass-123');
      await solveAltcha(page);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(/\/login/);
      await page.goto(`${t.url}/employee/login`);
      await page.locator('input[name=email]').fill(email);
      await page.locator('input[name=password]').fill('kai-Pass-123');
      await page.locator('form button[type=submit]').click();
      // The employee's home is the chat; search is one menu entry away.
      await page.waitForURL(`${t.url}/employee/chat`);
      await page.goto(`${t.url}/employee/search`);
      await page.locator('input[name=q]').fill('Filter Wärmepumpe');
      await page.locator('input[name=q]').press('Enter');
      await page.getByTestId('search-hit').first().getByText('Wartung.docx').waitFor();
      await page.locator('input[name=q]').fill('Wann werden die Gehälter überwiesen?');
      await page.locator('input[name=q]').press('Enter');
      await page
        .getByText(text('en', 'pages.search.noResults', { query: 'Wann werden die Gehälter überwiesen?' }))
        .waitFor();
      expect(await page.getByTestId('search-hit').count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      expect(browser.problems).toEqual([]);
    } catch (error) {
      await failureScreenshot(page, 'knowledge-files-failure.png');
      throw await withPageText(page, error);
    } finally {
      await browser.close();
    }
  });
});
