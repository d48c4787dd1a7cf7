import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delivery, FakeWhatsApp, textMessage } from '../apps/server/test/support/fake-whatsapp.ts';
import { companyWithFile } from '../apps/server/test/support/knowledge.ts';
import { signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { seriousViolations } from './support/axe.ts';
import { artifactPath, openBrowser } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';

const fake = new FakeWhatsApp();
const PHONE_NUMBER_ID = '106540352242922';
let t: TestServer;

beforeAll(async () => {
  await fake.start();
  fake.addNumber(PHONE_NUMBER_ID);
  t = await startAppServer(fake.env());
});
afterAll(async () => {
  await t?.close();
  await fake.stop();
});

const MANUAL =
  'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet. Danach muss der Wasserdruck auf 1,5 bar geprüft werden.';
const WA_ID = '4915112345678';

describe('WhatsApp in the browser', () => {
  it('a data manager connects the number in the dialog, asks by WhatsApp and finds the thread in the chat list', async () => {
    const dm = await companyWithFile(t, MANUAL, 'Heizung');
    const browser = await openBrowser();
    const { page } = browser;
    const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);
    try {
      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(dm.email);
      await page.locator('input[name=password]').fill(dm.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);

      // The tab the guided tour links to.
      await page.goto(`${t.url}/account-settings/whatsapp`);
      await page.getByText(en('whatsapp.notConnected')).waitFor();
      await page.getByRole('button', { name: en('whatsapp.connect') }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(en('whatsapp.fields.phoneNumberId')).fill(PHONE_NUMBER_ID);
      await dialog.getByLabel(en('whatsapp.fields.businessAccountId')).fill('102290129340398');
      await dialog.getByLabel(en('whatsapp.fields.accessToken')).fill(fake.accessToken);
      await dialog.getByLabel(en('whatsapp.fields.appSecret')).fill(fake.appSecret);
      await dialog.getByRole('button', { name: en('whatsapp.test.button') }).click();
      await dialog
        .getByText(en('whatsapp.test.ok', { number: '+49 30 1234567', name: 'Firma Test' }))
        .waitFor();
      const webhookUrl = await dialog
        .getByRole('textbox', { name: en('whatsapp.fields.webhookUrl') })
        .inputValue();
      expect(webhookUrl).toMatch(/\/api\/v1\/webhooks\/whatsapp\/[\w-]{32}$/);
      await page.screenshot({ path: artifactPath('whatsapp-connect-dialog.png'), fullPage: true });
      await dialog.getByRole('button', { name: en('common.save') }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText(en('whatsapp.connected', { id: PHONE_NUMBER_ID })).waitFor();

      // The data manager's phone is their WhatsApp contact; once confirmed, a message from it is answered as them.
      await t.server.ctx.db.execute(
        sql`update users set phone = ${`+${WA_ID}`}, phone_verified_digits = ${WA_ID} where email = ${dm.email}`,
      );
      const path = new URL(webhookUrl).pathname;
      const sent = await fake.deliver(
        `${t.url}${path}`,
        delivery(PHONE_NUMBER_ID, { messages: [textMessage(WA_ID, 'Womit wird der Heizkörper entlüftet?')] }),
      );
      expect(sent.status).toBe(200);
      await expect.poll(() => fake.sentTo(WA_ID).length, { timeout: 30_000 }).toBe(1);

      await page.goto(`${t.url}/chat`);
      const item = page.getByTestId('chat-list-item').filter({ hasText: en('whatsapp.source') });
      await item.waitFor();
      await item.click();
      await page.getByText('Womit wird der Heizkörper entlüftet?').first().waitFor();
      await page
        .getByText(/Vierkantschlüssel/)
        .first()
        .waitFor();
      // The WhatsApp chat can be asked in the web app too: it draws on every file the user may read.
      expect(await page.getByText(en('errors.CHAT_NO_READY_FILE')).count()).toBe(0);
      await page.screenshot({ path: artifactPath('whatsapp-chat-list.png'), fullPage: true });
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('a data manager confirms her phone number by sending the code from WhatsApp, in the account settings', async () => {
    const dm = await companyWithFile(t, MANUAL, 'Heizung');
    // Connected as the dialog does it, with a number of its own.
    const proposal = (await dm.client.get('/whatsapp/connection')).body;
    const phoneNumberId = fake.addNumber(undefined, '+49 30 7654321');
    const connected = await dm.client.request('PUT', '/whatsapp/connection', {
      phoneNumberId,
      businessAccountId: '102290129340398',
      accessToken: fake.accessToken,
      appSecret: fake.appSecret,
      verifyToken: proposal.verifyToken,
    });
    expect(connected.status).toBe(200);
    const webhook = `${t.url}${new URL(connected.body.webhookUrl).pathname}`;
    const phone: string = (await dm.client.get('/account/phone-verification')).body.phone;
    const waId = phone.replace(/\D/g, '');
    const browser = await openBrowser({ locale: 'en-US' });
    const { page } = browser;
    const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);
    try {
      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(dm.email);
      await page.locator('input[name=password]').fill(dm.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);
      await page.goto(`${t.url}/account-settings/account`);
      const card = page.getByTestId('phone-verification');
      await card.getByRole('button', { name: en('whatsapp.phone.start') }).click();
      const code = (
        (await card.getByTestId('phone-verification-code').locator('p[dir=ltr]').textContent()) ?? ''
      ).trim();
      expect(code).toMatch(/^\d{6}$/);
      expect(await card.getByRole('link', { name: en('whatsapp.phone.open') }).getAttribute('href')).toBe(
        `https://wa.me/49307654321?text=${code}`,
      );
      await page.screenshot({ path: artifactPath('phone-verification-code.png'), fullPage: true });
      // The phone sends the code; the card sees the confirmation by itself.
      const sent = await fake.deliver(
        webhook,
        delivery(phoneNumberId, { messages: [textMessage(waId, code)] }),
      );
      expect(sent.status).toBe(200);
      await card.getByText(/^Confirmed: messages from/).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('shows the connect dialog right to left in Arabic, with no serious accessibility violation', async () => {
    const dm = await signedInDataManager(t, { language: 'ar' });
    const browser = await openBrowser({ locale: 'ar' });
    const { page } = browser;
    const ar = (key: string) => text('ar', key);
    try {
      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(dm.email);
      await page.locator('input[name=password]').fill(dm.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);
      await page.goto(`${t.url}/account-settings/whatsapp`);
      await page.getByRole('button', { name: ar('whatsapp.connect') }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: ar('whatsapp.fields.webhookUrl') }).waitFor();
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
      // Ids, secrets and addresses are written left to right inside the right-to-left form.
      expect(
        await dialog.getByRole('textbox', { name: ar('whatsapp.fields.webhookUrl') }).getAttribute('dir'),
      ).toBe('ltr');
      await page.waitForTimeout(300);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: artifactPath('whatsapp-connect-dialog-ar.png'), fullPage: true });
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('shows the phone confirmation right to left in Arabic, the numbers and the code left to right', async () => {
    const dm = await signedInDataManager(t, { language: 'ar' });
    const proposal = (await dm.client.get('/whatsapp/connection')).body;
    const saved = await dm.client.request('PUT', '/whatsapp/connection', {
      phoneNumberId: fake.addNumber(),
      businessAccountId: '102290129340398',
      accessToken: fake.accessToken,
      appSecret: fake.appSecret,
      verifyToken: proposal.verifyToken,
    });
    expect(saved.status).toBe(200);
    const browser = await openBrowser({ locale: 'ar' });
    const { page } = browser;
    const ar = (key: string) => text('ar', key);
    try {
      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(dm.email);
      await page.locator('input[name=password]').fill(dm.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);
      await page.goto(`${t.url}/account-settings/account`);
      const card = page.getByTestId('phone-verification');
      await card.getByRole('button', { name: ar('whatsapp.phone.start') }).click();
      const code = card.getByTestId('phone-verification-code').locator('p[dir=ltr]');
      await code.waitFor();
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
      await page.waitForTimeout(300);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: artifactPath('phone-verification-ar.png'), fullPage: true });
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
