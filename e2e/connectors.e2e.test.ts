import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { TestWebDav } from '../apps/server/test/support/webdav-server.ts';
import {
  artifactPath,
  failureScreenshot,
  missingKeys,
  openBrowser,
  signInInBrowser,
  withPageText,
} from './support/browser.ts';
import { overflows } from './support/layout.ts';
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
      await table.getByText('Notiz.txt', { exact: true }).waitFor();
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
      await table.getByText('Notiz.txt', { exact: true }).waitFor({ state: 'detached' });
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

  it('works right to left in Arabic on a phone: a subfolder connected, its figures, and where to delete a file', async () => {
    // Arabic names on the server, in a subfolder; a file of another type stays out by the connector's filter.
    const folder = 'الأسعار';
    mkdirSync(join(dav.root, folder), { recursive: true });
    writeFileSync(join(dav.root, folder, 'قائمة الأسعار.txt'), 'Die Anfahrtspauschale beträgt 39,00 Euro.');
    writeFileSync(join(dav.root, folder, 'ملاحظة.md'), 'Der Kundendienst ist samstags geschlossen.');
    writeFileSync(join(dav.root, folder, 'صورة.csv'), 'a;b\n1;2\n');
    const browser = await openBrowser({ locale: 'ar', width: 390 });
    const { page } = browser;
    const ar = (key: string, vars?: Record<string, string>) => text('ar', key, vars);
    try {
      const dm = await signedInDataManager(t, { language: 'ar' });
      const division = (await dm.client.post('/divisions', { name: 'التدفئة' })).body.id as string;
      await signInInBrowser(page, t.url, dm);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await page.goto(`${t.url}/divisions/${division}`);
      await page.getByText(ar('connectors.empty')).waitFor();
      // The tour, folded into the header on this page, leaves the company's name whole beside the header's icons.
      await page.getByTestId('tour-entry').waitFor();
      const company = page.getByTestId('shell-company-name');
      expect(
        await company.evaluate(
          (el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1,
        ),
      ).toBe(true);

      await page.getByRole('button', { name: ar('connectors.connect') }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(ar('connectors.fields.name'), { exact: true }).fill('خادم الشركة');
      await dialog.getByLabel(ar('connectors.fields.url'), { exact: true }).fill(dav.url);
      await dialog.getByLabel(ar('connectors.fields.userName'), { exact: true }).fill(USER.user);
      await dialog.getByLabel(ar('connectors.fields.password'), { exact: true }).fill(USER.pass);
      await dialog.getByLabel(ar('connectors.fields.folder'), { exact: true }).fill(`/${folder}`);
      await dialog.getByLabel(ar('connectors.fields.fileTypes'), { exact: true }).fill('txt, md');
      expect(await overflows(page, false)).toEqual([]);
      await dialog.getByRole('button', { name: ar('connectors.connect') }).click();
      await page.getByText(ar('connectors.messages.connected')).waitFor();

      const card = page.getByTestId('connector');
      await card.getByText(ar('connectors.fileCount', { count: '2' })).waitFor({ timeout: 60_000 });
      await card.getByText(ar('connectors.states.active')).waitFor({ timeout: 60_000 });
      const table = page.getByRole('table');
      await table.getByText('قائمة الأسعار.txt', { exact: true }).waitFor();
      await table.getByText('ملاحظة.md', { exact: true }).waitFor();
      expect(await table.getByText('صورة.csv').count()).toBe(0);
      // The sync's figures, in Arabic: what it added, and the folder it reads.
      const counts = ar('connectors.counts', { added: '2', changed: '0', renamed: '0', removed: '0' });
      expect(await card.textContent()).toContain(counts);
      expect(await card.textContent()).toContain(`/${folder}`);

      await page.screenshot({ path: artifactPath('connectors-ar-390.png'), fullPage: true });
      expect(await overflows(page, false)).toEqual([]);
      // The table starts at its first column, the file's name, on the right.
      const name = await table.getByText('ملاحظة.md', { exact: true }).boundingBox();
      expect(name!.x + name!.width).toBeLessThanOrEqual(390);
      expect(name!.x).toBeGreaterThan(0);

      // A synced file is deleted where it lives: the button is off and says so.
      const remove = table.getByRole('button', { name: `${ar('common.delete')}: ملاحظة.md` });
      expect(await remove.isDisabled()).toBe(true);
      await remove.locator('..').hover();
      const tip = page.getByRole('tooltip');
      await tip.waitFor();
      const [before] = ar('connectors.deleteAtSource', { connector: 'خادم الشركة', path: '\u0000' }).split(
        '\u0000',
      );
      expect(await tip.textContent()).toContain(before);
      expect(await tip.textContent()).toContain('ملاحظة.md');

      expect(await missingKeys(page)).toEqual([]);
      expect(browser.problems).toEqual([]);
    } catch (error) {
      await failureScreenshot(page, 'connectors-ar-390-failure.png', { fullPage: true });
      throw await withPageText(page, error);
    } finally {
      await browser.close();
    }
  }, 150_000);
});
