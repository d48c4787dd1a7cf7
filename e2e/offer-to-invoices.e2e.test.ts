import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY, customerOf } from '../apps/server/src/modules/sales-documents/sales-document-fixtures.ts';
import { makeDocx, waitForFile } from '../apps/server/test/support/documents.ts';
import { signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { openBrowser, signInInBrowser } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer({}, { smtp: false });
});
afterAll(() => t?.close());

// The company's price list as a table (article number, item, unit, packing unit, net price), with rows beside the
// asked ones that share words with the job.
const PRICE_LIST = [
  { heading: 'Preisliste 2026' },
  {
    table: [
      ['Art.-Nr.', 'Bezeichnung', 'Einheit', 'VPE', 'Preis netto EUR'],
      ['A-10', 'Anfahrtspauschale Zone 1 (bis 15 km)', 'pauschal', '', '42,00'],
      ['A-11', 'Anfahrtspauschale Zone 2 (15 bis 30 km)', 'pauschal', '', '61,00'],
      ['A-20', 'Monteurstunde Geselle', 'Std', '', '72,00'],
      ['A-21', 'Monteurstunde Meister', 'Std', '', '91,00'],
      ['W-31', 'Wartung Gas-Brennwertkessel bodenstehend', 'pauschal', '', '209,00'],
      ['W-32', 'Wartung Öl-Brennwertkessel inkl. Düsenwechsel', 'pauschal', '', '239,00'],
      ['M-40', 'Thermostatkopf Standard, weiß', 'Stk', '1', '19,90'],
      ['M-51', 'Heizkörper Typ 22, 600 x 1000 mm', 'Stk', '1', '185,00'],
    ],
  },
];
const JOB =
  'Jährliche Wartung des Gas-Brennwertkessels, zwei Heizkörper Typ 22 tauschen, vier Thermostatköpfe einbauen, 3 Monteurstunden Geselle und Anfahrtspauschale';
// 209,00 + 2 × 185,00 + 4 × 19,90 + 3 × 72,00 + 42,00 = 916,60 net, 174,15 VAT (19 %): 1.090,75 gross.
const OFFER_GROSS = 109075;
// A down payment of 30 % of the net amount: 274,98 net, 52,25 VAT, 327,23 gross.
const DOWN_PAYMENT_GROSS = 32723;

const money = (lang: string, cents: number) =>
  new Intl.NumberFormat(lang, { style: 'currency', currency: 'EUR' }).format(cents / 100);

/** The row of the documents table that holds a cell with this text. */
const rowWith = (page: Page, cell: string | RegExp) =>
  page.getByRole('row').filter({ has: page.getByRole('cell', { name: cell, exact: true }) });

/** Opens the draft's editor (the only draft in the table), enters the service date, saves, and issues it. */
async function dateAndIssue(page: Page, lang: string) {
  const draft = rowWith(page, text(lang, 'handwerk.status.draft')).first();
  await draft.getByRole('button', { name: text(lang, 'handwerk.edit') }).click();
  const editor = page.getByRole('dialog');
  await editor.locator('#document-service-date').fill('2026-03-02');
  await editor.getByRole('button', { name: text(lang, 'common.save') }).click();
  await editor.waitFor({ state: 'detached' });
  await draft.getByRole('button', { name: text(lang, 'handwerk.finalise') }).click();
}

/** Turns the offer into an invoice of a kind, in the page's language. */
async function toInvoice(page: Page, lang: string, kind: 'downPayment' | 'final') {
  await rowWith(page, /^AN-\d{4}-0001$/)
    .getByRole('button', { name: text(lang, 'handwerk.toInvoice') })
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: text(lang, 'handwerk.invoiceKind') }).click();
  await page.getByRole('option', { name: text(lang, `documents.kind.${kind}`) }).click();
  if (kind === 'downPayment')
    await expect
      .poll(() =>
        dialog.getByRole('textbox', { name: text(lang, 'handwerk.downPaymentPercent') }).inputValue(),
      )
      .toBe('30');
  await dialog.getByRole('button', { name: text(lang, 'handwerk.toInvoice') }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('an offer from a job text, then a down-payment and a final invoice, in the browser', () => {
  for (const [lang, locale, languageName, dir] of [
    ['de', 'de-DE', 'Deutsch', 'ltr'],
    ['ar', 'ar', 'العربية', 'rtl'],
  ] as const) {
    it(`${lang}: drafts the offer with the asked items and bills it in two invoices`, async () => {
      const dm = await signedInDataManager(t, { language: lang });
      expect((await dm.client.put('/company/details', COMPANY)).status).toBe(200);
      const division = (await dm.client.post('/divisions', { name: 'Preise' })).body.id as string;
      const up = await dm.client.upload(`/divisions/${division}/files`, [
        { name: 'Preisliste.docx', content: await makeDocx(PRICE_LIST) },
      ]);
      await waitForFile(dm.client, up.body.results[0].file.id);
      await customerOf(dm.client);

      const browser = await openBrowser({ locale });
      const { page } = browser;
      try {
        await signInInBrowser(page, t.url, dm);
        await page.goto(`${t.url}/handwerk`);
        await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe(dir);

        // The offer, drafted from the job's words in the page's language.
        await page.getByRole('button', { name: text(lang, 'handwerk.draftOffer') }).click();
        const draft = page.getByRole('dialog');
        await draft.getByRole('combobox', { name: text(lang, 'handwerk.customer.label') }).click();
        await page.getByRole('option', { name: 'Familie Schneider' }).click();
        await draft.getByRole('combobox', { name: text(lang, 'handwerk.language') }).click();
        await page.getByRole('option', { name: languageName }).click();
        await draft.getByRole('textbox', { name: text(lang, 'handwerk.description') }).fill(JOB);
        await draft.getByRole('button', { name: text(lang, 'handwerk.draft'), exact: true }).click();
        await page.getByText(text(lang, 'handwerk.drafted', { count: '5' })).waitFor();
        const offerDraft = rowWith(page, text(lang, 'handwerk.status.draft'));
        await offerDraft.getByRole('cell', { name: money(lang, OFFER_GROSS), exact: true }).waitFor();

        // The editor shows the asked items at their quantities, with the price list's units.
        await offerDraft.getByRole('button', { name: text(lang, 'handwerk.edit') }).click();
        const editor = page.getByRole('dialog');
        const field = (label: string, i: number) =>
          editor.getByRole('textbox', { name: `${text(lang, label)} ${i + 1}`, exact: true }).inputValue();
        const rows = [0, 1, 2, 3, 4];
        await editor
          .getByRole('textbox', { name: `${text(lang, 'documents.quantity')} 5`, exact: true })
          .waitFor();
        expect(await Promise.all(rows.map((i) => field('documents.quantity', i)))).toEqual([
          '1',
          '2',
          '4',
          '3',
          '1',
        ]);
        expect(await Promise.all(rows.map((i) => field('handwerk.unit', i)))).toEqual([
          'pauschal',
          'Stk',
          'Stk',
          'Std',
          'pauschal',
        ]);
        await expect(
          editor.getByRole('textbox', { name: `${text(lang, 'documents.quantity')} 6`, exact: true }).count(),
        ).resolves.toBe(0);
        await editor.getByRole('button', { name: text(lang, 'common.cancel') }).click();
        await editor.waitFor({ state: 'detached' });

        await offerDraft.getByRole('button', { name: text(lang, 'handwerk.finalise') }).click();
        await page.getByRole('cell', { name: /^AN-\d{4}-0001$/ }).waitFor();

        // A down-payment invoice of 30 %, dated and issued, then paid.
        await toInvoice(page, lang, 'downPayment');
        await dateAndIssue(page, lang);
        const downPayment = rowWith(page, /^RE-\d{4}-0001$/);
        await downPayment.getByRole('cell', { name: text(lang, 'documents.kind.downPayment') }).waitFor();
        await downPayment.getByRole('cell', { name: money(lang, DOWN_PAYMENT_GROSS), exact: true }).waitFor();
        await downPayment.getByRole('button', { name: text(lang, 'handwerk.markPaid') }).click();
        await downPayment.getByRole('cell', { name: text(lang, 'handwerk.status.paid') }).waitFor();

        // The final invoice bills the whole job and deducts the paid down payment.
        await toInvoice(page, lang, 'final');
        await dateAndIssue(page, lang);
        const final = rowWith(page, /^RE-\d{4}-0002$/);
        await final.getByRole('cell', { name: text(lang, 'documents.kind.final') }).waitFor();
        await final.getByRole('cell', { name: money(lang, OFFER_GROSS), exact: true }).waitFor();
        const invoices = (await dm.client.get('/handwerk/documents?type=invoice')).body.items as Array<{
          invoiceKind: string;
          amountDueCents: number;
          language: string;
        }>;
        expect(invoices.find((i) => i.invoiceKind === 'final')).toMatchObject({
          language: lang,
          amountDueCents: OFFER_GROSS - DOWN_PAYMENT_GROSS,
        });
        expect(browser.problems).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  }
});
