import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf, renderPicture } from '../apps/server/test/support/scans.ts';
import { signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { openBrowser } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer();
});
afterAll(() => t?.close());

describe('a photographed document in the browser', () => {
  it('is uploaded as a picture, read by OCR, shown as OCR text and found by search', async () => {
    const browser = await openBrowser({ locale: 'en-US' });
    const { page } = browser;
    try {
      const dm = await signedInDataManager(t, { language: 'en' });
      const division = (await dm.client.post('/divisions', { name: 'Baustelle' })).body.id as string;
      const photo = await renderPicture(
        await makeTextPdf([
          ['Delivery note', 'The radiators were delivered on Monday and inspected by the site manager.'],
        ]),
        'jpeg',
      );

      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(dm.email);
      await page.locator('input[name=password]').fill(dm.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);
      await page.goto(`${t.url}/divisions/${division}`);
      await page.getByRole('button', { name: text('en', 'pages.files.upload.button') }).click();
      await page
        .getByTestId('upload-input')
        .setInputFiles({ name: 'delivery.jpg', mimeType: 'image/jpeg', buffer: photo });
      await page
        .getByRole('dialog')
        .getByRole('button', { name: text('en', 'pages.files.upload.submit') })
        .click();
      await page.getByTestId('upload-results').getByText(text('en', 'messages.fileAdded')).waitFor();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: text('en', 'common.close') })
        .click();
      await page
        .getByRole('table')
        .getByText(text('en', 'pages.files.statuses.ready'), { exact: true })
        .waitFor({ timeout: 60_000 });

      await page
        .getByRole('button', { name: `${text('en', 'pages.files.details.title')}: delivery.jpg` })
        .click();
      const details = page.getByRole('dialog');
      await details.getByText(text('en', 'files.ocr.label'), { exact: true }).waitFor();
      expect(await details.textContent()).toMatch(/Mean confidence \d+% · pages 1/);
      await details.getByRole('button', { name: text('en', 'common.close') }).click();

      await page.getByRole('link', { name: text('en', 'nav.search') }).click();
      await page.locator('input[name=q]').fill('When were the radiators delivered?');
      await page.locator('input[name=q]').press('Enter');
      const hit = page.getByTestId('search-hit').first();
      await hit.getByText('delivery.jpg').waitFor();
      await hit.getByText(/delivered on Monday/).waitFor();
    } finally {
      await browser.close();
    }
  }, 120_000);
});
