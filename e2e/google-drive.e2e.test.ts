import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../apps/server/test/support/factories.ts';
import { TestGoogleDrive } from '../apps/server/test/support/google-drive-server.ts';
import { signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { openBrowser, signInInBrowser } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';

let google: TestGoogleDrive;
let t: TestServer;
beforeAll(async () => {
  google = await TestGoogleDrive.start();
  t = await startAppServer({ OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${google.port}` }, { smtp: false });
  const operator = (await signedInAs(t, 'Administrator')).client;
  expect((await operator.request('PUT', '/admin/google-app', google.app)).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await google?.stop();
});

describe('a Google Drive folder connected in the browser', () => {
  it('goes through Google’s consent and back (in Arabic), brings the files in and follows a change', async () => {
    google.put('Werkstatt/Preisliste.txt', 'Die Wartung der Wärmepumpe kostet 189 Euro pauschal.');
    google.put('Werkstatt/Notiz.txt', 'Der Schornsteinfeger kommt im Oktober zur Messung.');
    const browser = await openBrowser({ locale: 'ar' });
    const { page } = browser;
    const ar = (key: string, vars?: Record<string, string>) => text('ar', key, vars);
    try {
      const dm = await signedInDataManager(t, { language: 'ar' });
      const division = (await dm.client.post('/divisions', { name: 'Heizung' })).body.id as string;
      await signInInBrowser(page, t.url, dm);
      await page.goto(`${t.url}/divisions/${division}`);
      const connect = page.getByRole('button', { name: ar('connectors.connect') });
      await connect.waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await connect.click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(ar('connectors.fields.kind'), { exact: true }).selectOption('googledrive');
      await dialog.getByText(ar('connectors.google.dialogTitle')).waitFor();
      await dialog.getByLabel(ar('connectors.fields.name'), { exact: true }).fill('Drive');
      await dialog.getByLabel(ar('connectors.fields.folder'), { exact: true }).fill('Werkstatt');
      // To Google's consent page (the double answers at once) and back to the callback page, which ends it.
      await dialog.getByRole('button', { name: ar('connectors.google.consent') }).click();
      await page.waitForURL(`${t.url}/divisions/${division}`);
      await page.getByText(ar('connectors.messages.connected')).waitFor();
      const table = page.getByRole('table');
      await table.getByText('Notiz.txt', { exact: true }).waitFor();
      const readyCount = (n: number) =>
        page.waitForFunction(
          ({ label, n }) =>
            [...document.querySelectorAll('table td')].filter((td) => td.textContent === label).length === n,
          { label: ar('pages.files.statuses.ready'), n },
          { timeout: 60_000 },
        );
      await readyCount(2);

      // Trashed in Drive, then synced by hand: the changes API says so, the file goes.
      google.trash('Werkstatt/Notiz.txt');
      await page.getByRole('button', { name: ar('connectors.syncNow') }).click();
      await table.getByText('Notiz.txt', { exact: true }).waitFor({ state: 'detached' });
      await readyCount(1);
      expect(google.downloads('Werkstatt/Preisliste.txt')).toBe(1);
    } finally {
      await browser.close();
    }
  }, 150_000);
});
