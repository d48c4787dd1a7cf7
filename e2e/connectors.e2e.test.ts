import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { TestWebDav } from '../apps/server/test/support/webdav-server.ts';
import { openBrowser } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';

const USER = { user: 'anna', pass: 'app-passwort-1' };
let dav: TestWebDav;
let t: TestServer;
beforeAll(async () => {
  dav = await TestWebDav.start([USER]);
  t = await startAppServer({ OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${dav.port}` }, { smtp: false });
});
afterAll(async () => {
  await t?.close();
  await dav?.stop();
});

describe('a WebDAV folder connected in the browser', () => {
  it('brings its files in, and the answers follow a change and a deletion there', async () => {
    writeFileSync(join(dav.root, 'Preisliste.txt'), 'Die Wartung der Wärmepumpe kostet 189 Euro pauschal.');
    writeFileSync(join(dav.root, 'Notiz.txt'), 'Der Schornsteinfeger kommt im Oktober zur Messung.');
    const browser = await openBrowser({ locale: 'de-DE' });
    const { page } = browser;
    const de = (key: string, vars?: Record<string, string>) => text('de', key, vars);
    try {
      const dm = await signedInDataManager(t, { language: 'de' });
      const division = (await dm.client.post('/divisions', { name: 'Heizung' })).body.id as string;
      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(dm.email);
      await page.locator('input[name=password]').fill(dm.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);
      await page.goto(`${t.url}/divisions/${division}`);

      await page.getByRole('button', { name: de('connectors.connect') }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(de('connectors.fields.name'), { exact: true }).fill('Nextcloud');
      await dialog.getByLabel(de('connectors.fields.url'), { exact: true }).fill(dav.url);
      await dialog.getByLabel(de('connectors.fields.userName'), { exact: true }).fill(USER.user);
      await dialog.getByLabel(de('connectors.fields.password'), { exact: true }).fill(USER.pass);
      await dialog.getByRole('button', { name: de('connectors.connect') }).click();
      await page.getByText(de('connectors.messages.connected')).waitFor();
      const table = page.getByRole('table');
      const ready = table.getByText(de('pages.files.statuses.ready'), { exact: true });
      await table.getByText('Notiz.txt', { exact: true }).waitFor({ timeout: 30_000 });
      await page.waitForFunction(
        (label) =>
          [...document.querySelectorAll('table td')].filter((td) => td.textContent === label).length === 2,
        de('pages.files.statuses.ready'),
        { timeout: 60_000 },
      );
      await ready.first().waitFor();

      // Changed and deleted on the server, then synced by hand.
      writeFileSync(join(dav.root, 'Preisliste.txt'), 'Die Wartung der Wärmepumpe kostet jetzt 214 Euro.');
      rmSync(join(dav.root, 'Notiz.txt'));
      const syncNow = page.getByRole('button', { name: de('connectors.syncNow') });
      await syncNow.click();
      await table.getByText('Notiz.txt', { exact: true }).waitFor({ state: 'detached', timeout: 30_000 });
      await page.waitForFunction(
        (label) =>
          [...document.querySelectorAll('table td')].filter((td) => td.textContent === label).length === 1,
        de('pages.files.statuses.ready'),
        { timeout: 60_000 },
      );

      await page.getByRole('link', { name: de('nav.search') }).click();
      await page.locator('input[name=q]').fill('Was kostet die Wartung der Wärmepumpe?');
      await page.locator('input[name=q]').press('Enter');
      const hit = page.getByTestId('search-hit').first();
      await hit.getByText('Preisliste.txt', { exact: true }).waitFor();
      await hit.getByText(/214 Euro/).waitFor();
      expect(await page.getByText(/189 Euro|Schornsteinfeger/).count()).toBe(0);
    } finally {
      await browser.close();
    }
  }, 150_000);
});
