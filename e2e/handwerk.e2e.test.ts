import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx } from '../apps/server/test/support/documents.ts';
import { type TestServer, verifiedDataManager } from '../apps/server/test/support/test-server.ts';
import { openBrowser } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';
import { uploadDocxThroughDialog } from './support/upload.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer();
});
afterAll(() => t?.close());

const COMPANY = {
  name: 'Müller Haustechnik GmbH',
  website: '',
  street: 'Hauptstraße 12',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  phone: '+49 30 1234567',
  email: 'buero@mueller-haustechnik.example',
  vatId: 'DE136695976',
  taxNumber: '',
  standardTaxRate: 19,
  registerNumber: '',
  registryCourt: '',
  managingDirector: '',
  iban: 'DE89370400440532013000',
  bic: '',
};

describe('offers and invoices in the browser', () => {
  it('uploads a price list, drafts an offer in German, turns it into an invoice in English and downloads the PDF and the e-invoices', async () => {
    const browser = await openBrowser({ locale: 'en-US' });
    const { page } = browser;
    try {
      // Sending a document to a customer needs a confirmed address (EMAIL_NOT_VERIFIED otherwise).
      const dm = await verifiedDataManager(t, { language: 'en' });
      await dm.client.put('/company/details', COMPANY);
      const division = (await dm.client.post('/divisions', { name: 'Preise' })).body.id as string;

      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(dm.email);
      await page.locator('input[name=password]').fill(dm.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);

      // The price list goes in through the normal upload.
      await page.goto(`${t.url}/divisions/${division}`);
      const priceList = await makeDocx([
        { heading: 'Preisliste Heizung 2026' },
        { text: 'Wartung Gasbrennwertkessel ........ 149,00 €' },
        { text: 'Anfahrt je km 0,85 €' },
      ]);
      await uploadDocxThroughDialog(page, 'Preisliste.docx', priceList);

      await page.getByRole('link', { name: text('en', 'handwerk.menu') }).click();
      await page.waitForURL(`${t.url}/handwerk`);

      // A customer, then the offer drafted in German from the job's words.
      await page.getByRole('button', { name: text('en', 'handwerk.newCustomer') }).click();
      const customer = page.getByRole('dialog');
      await customer.getByLabel(text('en', 'handwerk.customer.name')).fill('Familie Schneider');
      await customer.getByLabel(text('en', 'handwerk.customer.street')).fill('Lindenweg 4');
      await customer.getByLabel(text('en', 'handwerk.customer.postalCode')).fill('14467');
      await customer.getByLabel(text('en', 'handwerk.customer.city')).fill('Potsdam');
      await customer.getByLabel(text('en', 'handwerk.customer.email')).fill('schneider@kunde.example');
      await customer.getByRole('button', { name: text('en', 'handwerk.addCustomer') }).click();
      await customer.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: text('en', 'handwerk.draftOffer') }).click();
      const draft = page.getByRole('dialog');
      await draft.getByRole('combobox', { name: text('en', 'handwerk.customer.label') }).click();
      await page.getByRole('option', { name: 'Familie Schneider' }).click();
      await draft.getByRole('combobox', { name: text('en', 'handwerk.language') }).click();
      await page.getByRole('option', { name: 'Deutsch' }).click();
      await draft
        .getByRole('textbox', { name: text('en', 'handwerk.description') })
        .fill('Heizungswartung Gasbrennwertkessel, Einfamilienhaus, Anfahrt 25 km');
      await draft.getByRole('button', { name: text('en', 'handwerk.draft'), exact: true }).click();
      await page.getByText(text('en', 'handwerk.drafted', { count: '2' })).waitFor();

      // The drafted lines and prices came from the price list, each citing its passage.
      const offers = (await dm.client.get('/handwerk/documents?type=offer')).body.items;
      expect(offers).toHaveLength(1);
      const offer = (await dm.client.get(`/handwerk/documents/${offers[0].id}`)).body;
      expect(offer).toMatchObject({ language: 'de', grossCents: 17025 + 3235 });
      expect(
        offer.lines.every((l: { source: { fileName: string } }) => l.source.fileName === 'Preisliste.docx'),
      ).toBe(true);

      // Issue the offer, then turn it into an invoice in English and issue that.
      await page.getByRole('button', { name: text('en', 'handwerk.finalise') }).click();
      await page.getByRole('cell', { name: /^AN-\d{4}-0001$/ }).waitFor();
      await page.getByRole('button', { name: text('en', 'handwerk.toInvoice') }).click();
      const convert = page.getByRole('dialog');
      await convert.getByRole('combobox', { name: text('en', 'handwerk.language') }).click();
      await page.getByRole('option', { name: 'English' }).click();
      await convert.getByRole('button', { name: text('en', 'handwerk.toInvoice') }).click();
      await convert.waitFor({ state: 'detached' });
      // The invoice drafted from the offer carries neither the offer's title nor its validity.
      const drafted = (await dm.client.get('/handwerk/documents?type=invoice')).body.items[0];
      expect(drafted).toMatchObject({ title: '', status: 'draft' });
      // An invoice names its service date (§ 14 (4) no. 6 UStG): entered in the editor before it is issued.
      await page.getByRole('button', { name: text('en', 'handwerk.edit') }).click();
      const editor = page.getByRole('dialog');
      await editor.locator('#document-service-date').fill('2026-03-02');
      await editor.getByRole('button', { name: text('en', 'common.save') }).click();
      await editor.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: text('en', 'handwerk.finalise') }).click();
      const number = page.getByRole('cell', { name: /^RE-\d{4}-0001$/ });
      await number.waitFor();
      // Issued is not sent: the list says "Issued" until a mail takes it to the customer; the offer is accepted.
      const row = page.getByRole('row').filter({ has: number });
      await row.getByRole('cell', { name: text('en', 'handwerk.status.issued') }).waitFor();
      expect((await dm.client.get(`/handwerk/documents/${offer.id}`)).body.status).toBe('accepted');

      // The invoice's PDF downloads, in English.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        row.getByRole('link', { name: text('en', 'handwerk.downloadPdf') }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^RE-\d{4}-0001\.pdf$/);
      // And as German e-invoices: XRechnung (XML) and ZUGFeRD / Factur-X (PDF/A-3 with the XML inside).
      const [xrechnung] = await Promise.all([
        page.waitForEvent('download'),
        row.getByRole('link', { name: text('en', 'handwerk.downloadXRechnung') }).click(),
      ]);
      expect(xrechnung.suggestedFilename()).toMatch(/^RE-\d{4}-0001-xrechnung\.xml$/);
      const [facturX] = await Promise.all([
        page.waitForEvent('download'),
        row.getByRole('link', { name: text('en', 'handwerk.downloadFacturX') }).click(),
      ]);
      expect(facturX.suggestedFilename()).toMatch(/^RE-\d{4}-0001-factur-x\.pdf$/);
      // Sent to the customer by e-mail, the text in the invoice's language and the Factur-X PDF attached.
      await row.getByRole('button', { name: text('en', 'handwerk.send.action') }).click();
      const send = page.getByRole('dialog');
      const subject = send.getByRole('textbox', { name: text('en', 'handwerk.send.subject') });
      await expect
        .poll(() => subject.inputValue())
        .toMatch(/^Invoice RE-\d{4}-0001 from Müller Haustechnik GmbH$/);
      // Replies go to the company's address; the mail goes to the customer's.
      await send
        .getByText(text('en', 'handwerk.send.replyTo', { email: 'buero@mueller-haustechnik.example' }))
        .waitFor();
      await expect
        .poll(() => send.getByRole('textbox', { name: text('en', 'handwerk.send.to') }).inputValue())
        .toBe('schneider@kunde.example');
      await send.getByRole('button', { name: text('en', 'handwerk.send.submit') }).click();
      await page
        .getByText(text('en', 'handwerk.send.queued', { email: 'schneider@kunde.example' }))
        .waitFor();
      const mail = await t.smtp!.waitFor((m) => m.to.includes('schneider@kunde.example'));
      expect(mail.text).toContain('Please find attached our invoice');
      expect(mail.attachments.map((a) => a.fileName)).toEqual([
        expect.stringMatching(/^RE-\d{4}-0001-factur-x\.pdf$/),
      ]);
      // Opened again, the dialog lists the mail as sent.
      await row.getByRole('button', { name: text('en', 'handwerk.send.action') }).click();
      await page
        .getByRole('list', { name: text('en', 'handwerk.send.history') })
        .getByText(text('en', 'handwerk.send.status.sent'))
        .waitFor();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: text('en', 'common.cancel') })
        .click();

      // The mail has left: the invoice is now sent.
      const invoices = (await dm.client.get('/handwerk/documents?type=invoice')).body.items;
      expect(invoices[0]).toMatchObject({ language: 'en', status: 'sent', grossCents: 17025 + 3235 });
    } finally {
      await browser.close();
    }
  });
});
