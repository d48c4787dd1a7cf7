import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx } from '../apps/server/test/support/documents.ts';
import { FakeWhatsApp } from '../apps/server/test/support/fake-whatsapp.ts';
import { signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { seriousViolations } from './support/axe.ts';
import { artifactPath, failureScreenshot, openBrowser, withPageText } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';
import { uploadDocxThroughDialog } from './support/upload.ts';

// Meta's Graph API, which checks the number the tour's last step connects.
const fake = new FakeWhatsApp();
let t: TestServer;
beforeAll(async () => {
  await fake.start();
  fake.addNumber('106540352242922');
  t = await startAppServer(fake.env());
});
afterAll(async () => {
  await t?.close();
  await fake.stop();
});

describe('the guided tour in the browser', () => {
  it('a new data manager goes through logo, company details and a document, skips once and resumes, and connects WhatsApp', async () => {
    const browser = await openBrowser({ locale: 'en-US' });
    const { page } = browser;
    const en = (key: string, vars: Record<string, string> = {}) => text('en', key, vars);
    const panel = page.getByTestId('tour-panel');
    const step = (id: string) => page.getByTestId(`tour-step-${id}`);
    const tooltip = page.getByTestId('tour-tooltip');
    // The spotlighted control and its tooltip are in view: the control not under the sticky header, the tooltip
    // beside the navigation and on the screen (it sat at x = -112 px behind the navigation).
    const inView = (target: string) =>
      expect
        .poll(async () => {
          const [tip, nav, bar, aim] = await Promise.all([
            tooltip.boundingBox(),
            page.getByTestId('vertical-nav').boundingBox(),
            page.locator('header').first().boundingBox(),
            page.locator(target).boundingBox(),
          ]);
          const width = page.viewportSize()!.width;
          return {
            tooltipBesideNavigation:
              tip !== null && tip.x >= (nav ? nav.x + nav.width : 0) && tip.x + tip.width <= width,
            targetBelowHeader: aim !== null && bar !== null && aim.y >= bar.y + bar.height,
          };
        })
        .toEqual({ tooltipBesideNavigation: true, targetBelowHeader: true });
    const waitDone = (id: string, timeout = 15_000) =>
      page.waitForSelector(`[data-testid="tour-step-${id}"][data-done="true"]`, { timeout });
    try {
      const dm = await signedInDataManager(t, { language: 'en', companyName: 'Tour GmbH' });
      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(dm.email);
      await page.locator('input[name=password]').fill(dm.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);

      // A new data manager is shown the tour at once, nothing done yet.
      await panel.getByText(en('tour.done', { done: '0', total: '4' })).waitFor();

      // Step 1: the logo, on its real control.
      await step('logo').click();
      await page.waitForURL(`${t.url}/account-settings/company`);
      await tooltip.getByText(en('tour.steps.logo.title')).waitFor();
      await inView('[data-tour="logo"]');
      expect(await seriousViolations(page)).toEqual([]);
      await tooltip.getByRole('button', { name: en('tour.gotIt') }).click();
      const png = await sharp({
        create: { width: 400, height: 160, channels: 4, background: { r: 20, g: 110, b: 180, alpha: 1 } },
      })
        .png()
        .toBuffer();
      await page
        .getByTestId('company-logo-input')
        .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
      await waitDone('logo');
      // The navigation shows the company's logo instead of the product's.
      await page.locator('nav img[src*="/branding/companies/"]').first().waitFor();

      // Skipped, the tour stays away, also after a reload ...
      await panel.getByRole('button', { name: en('tour.skip') }).click();
      await panel.waitFor({ state: 'detached' });
      await page.reload();
      await page.getByRole('form', { name: en('pages.accountSettings.tabs.company') }).waitFor();
      expect(await panel.count()).toBe(0);
      // ... until the help menu opens it again, where the user left it.
      await page.getByRole('button', { name: en('tour.helpMenu') }).click();
      await page.getByRole('menuitem', { name: en('tour.restart') }).click();
      await panel.getByText(en('tour.done', { done: '1', total: '4' })).waitFor();

      // Step 2: the company details, done once everything an invoice needs is saved (an e-invoice needs phone and e-mail).
      await step('companyDetails').click();
      await tooltip.getByText(en('tour.steps.companyDetails.title')).waitFor();
      await inView('[data-tour="company-details"]');
      await tooltip.getByRole('button', { name: en('tour.gotIt') }).click();
      const form = page.getByRole('form', { name: en('pages.accountSettings.tabs.company') });
      await form.getByLabel(en('company.details.fields.street')).fill('Hauptstraße 12');
      await form.getByLabel(en('company.details.fields.postalCode')).fill('10115');
      await form.getByLabel(en('company.details.fields.city')).fill('Berlin');
      await form.getByLabel(en('company.details.fields.phone')).fill('+49 30 1234567');
      await form.getByLabel(en('company.details.fields.email')).fill('info@mueller-haustechnik.example');
      await form.getByLabel(en('company.details.fields.vatId')).fill('DE136695976');
      await form.getByLabel(en('company.details.fields.iban')).fill('DE89 3704 0044 0532 0130 00');
      await form.getByRole('button', { name: en('common.save') }).click();
      await waitDone('companyDetails');

      // Step 3: documents, done once a file is ready (not when it was uploaded).
      await step('documents').click();
      await page.waitForURL(`${t.url}/divisions`);
      await tooltip.getByText(en('tour.steps.documents.title')).waitFor();
      await tooltip.getByRole('button', { name: en('tour.gotIt') }).click();
      await page
        .getByRole('button', { name: en('pages.divisions.add') })
        .first()
        .click();
      await page.locator('input[name=divisionName]').fill('Heizung');
      await page
        .getByRole('dialog')
        .getByRole('button', { name: en('common.create') })
        .click();
      await page.getByRole('link', { name: `${en('pages.divisions.openFiles')}: Heizung` }).click();
      await page.getByRole('heading', { name: en('pages.files.heading', { division: 'Heizung' }) }).waitFor();
      await uploadDocxThroughDialog(
        page,
        'Preise.docx',
        await makeDocx([{ text: 'Wartung Gasbrennwertkessel: 189 Euro pauschal.' }]),
      );
      // Away from the step's page the tour waits folded in the navbar.
      await page.getByTestId('tour-entry').click();
      await waitDone('documents', 30_000);

      // Step 4: WhatsApp, on the connect button of its account-settings tab; done once the number is saved.
      await step('whatsapp').click();
      await page.waitForURL(`${t.url}/account-settings/whatsapp`);
      await tooltip.getByText(en('tour.steps.whatsapp.title')).waitFor();
      await tooltip.getByRole('button', { name: en('tour.gotIt') }).click();
      await page.locator('[data-tour="whatsapp"]').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(en('whatsapp.fields.phoneNumberId')).fill('106540352242922');
      await dialog.getByLabel(en('whatsapp.fields.businessAccountId')).fill('102290129340398');
      await dialog.getByLabel(en('whatsapp.fields.accessToken')).fill(fake.accessToken);
      await dialog.getByLabel(en('whatsapp.fields.appSecret')).fill('tour-app-secret-0123456789');
      await dialog.getByRole('button', { name: en('common.save') }).click();
      await page.getByText(en('whatsapp.connected', { id: '106540352242922' })).waitFor();
      await waitDone('whatsapp');
    } catch (error) {
      await failureScreenshot(page, 'guided-tour-failure.png', { fullPage: true });
      throw await withPageText(page, error);
    } finally {
      await browser.close();
    }
  });

  it.each(['en', 'ar'])(
    'on a phone (390 px, %s) keeps the tooltip on the screen, clear of the tour panel, and its control below the header',
    async (lang) => {
      const browser = await openBrowser({ locale: lang, width: 390 });
      const { page } = browser;
      const tooltip = page.getByTestId('tour-tooltip');
      const panel = page.getByTestId('tour-panel');
      /** Where the tooltip, its control, the header and the tour panel stand, as what a user would see wrong. */
      const placement = (target: string) =>
        expect
          .poll(async () => {
            const [tip, bar, aim, aside] = await Promise.all([
              tooltip.boundingBox(),
              page.locator('header').first().boundingBox(),
              page.locator(target).boundingBox(),
              panel.boundingBox(),
            ]);
            const width = page.viewportSize()!.width;
            const apart = (a: typeof tip, b: typeof tip) =>
              !a || !b || a.y + a.height <= b.y || b.y + b.height <= a.y;
            return {
              tooltipOnScreen: tip !== null && tip.x >= 0 && tip.x + tip.width <= width,
              tooltipClearOfPanel: tip !== null && apart(tip, aside),
              targetBelowHeader: aim !== null && bar !== null && aim.y >= bar.y + bar.height,
            };
          })
          .toEqual({ tooltipOnScreen: true, tooltipClearOfPanel: true, targetBelowHeader: true });
      try {
        const dm = await signedInDataManager(t, { language: lang, companyName: 'Tour GmbH' });
        await page.goto(`${t.url}/login`);
        await page.locator('input[name=email]').fill(dm.email);
        await page.locator('input[name=password]').fill(dm.password);
        await page.locator('form button[type=submit]').click();
        await page.waitForURL(`${t.url}/dashboard`);
        await page.getByTestId('tour-step-logo').click();
        await page.waitForURL(`${t.url}/account-settings/company`);
        await tooltip.getByText(text(lang, 'tour.steps.logo.title')).waitFor();
        await page.screenshot({ path: artifactPath(`guided-tour-logo-${lang}-390.png`) });
        await placement('[data-tour="logo"]');
        await tooltip.getByRole('button', { name: text(lang, 'tour.gotIt') }).click();
        await page.getByTestId('tour-step-companyDetails').click();
        await tooltip.getByText(text(lang, 'tour.steps.companyDetails.title')).waitFor();
        await page.screenshot({ path: artifactPath(`guided-tour-details-${lang}-390.png`) });
        await placement('[data-tour="company-details"]');
        expect(browser.problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
