import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx } from '../apps/server/test/support/documents.ts';
import { type FakeLlm, startFakeLlm } from '../apps/server/test/support/fake-llm.ts';
import { employeeOf } from '../apps/server/test/support/knowledge.ts';
import { signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { seriousViolations } from './support/axe.ts';
import { solveAltcha } from './support/bot-check.ts';
import { failureScreenshot, openBrowser, withPageText } from './support/browser.ts';
import { startAppServer, text } from './support/server.ts';
import { uploadDocxThroughDialog } from './support/upload.ts';

let t: TestServer;
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
  // The fake provider listens on 127.0.0.1, which the outbound policy refuses unless allowed.
  t = await startAppServer({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
  await llm?.close();
});

const MANUAL = [
  { heading: 'Wartung der Wärmepumpe' },
  {
    text: 'Der Filter der Wärmepumpe wird alle sechs Monate gereinigt. Danach wird der Wasserdruck geprüft.',
  },
];

async function signIn(page: Page, url: string, email: string, password: string, home: string) {
  await page.goto(url);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL(`${t.url}${home}`);
}

async function newChat(page: Page, name: string, division: string, provider?: string) {
  await page
    .getByRole('button', { name: text('en', 'chat.new') })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(text('en', 'chat.dialog.name')).fill(name);
  if (provider) {
    await dialog.getByRole('combobox', { name: text('en', 'chat.dialog.provider') }).click();
    await page.getByRole('option', { name: provider }).click();
  }
  await dialog.getByRole('combobox', { name: text('en', 'chat.dialog.divisions') }).click();
  await page.getByRole('option', { name: division }).click();
  await dialog.getByRole('button', { name: text('en', 'chat.dialog.create') }).click();
  await dialog.waitFor({ state: 'detached' });
}

async function ask(page: Page, question: string) {
  await page.getByLabel(text('en', 'chat.input')).fill(question);
  await page.getByRole('button', { name: text('en', 'chat.send') }).click();
}

describe('chat in the browser', () => {
  it('a data manager uploads a .docx, gets a streamed cited answer, opens the source, rates it and finds it in the report', async () => {
    const browser = await openBrowser({ locale: 'en-US' });
    const { page } = browser;
    try {
      const dm = await signedInDataManager(t, { language: 'en' });
      const heizung = (await dm.client.post('/divisions', { name: 'Heizung' })).body.id as string;
      await signIn(page, `${t.url}/login`, dm.email, dm.password, '/dashboard');

      // Upload through the dialog and wait for the file to be ready
      await page.goto(`${t.url}/divisions/${heizung}`);
      await uploadDocxThroughDialog(page, 'Wartung.docx', await makeDocx(MANUAL));

      // A new chat with the built-in answerer
      await page.getByRole('link', { name: text('en', 'nav.chat') }).click();
      await page.waitForURL(`${t.url}/chat`);
      await newChat(page, 'Wartungsfragen', 'Heizung');
      await ask(page, 'How often is the filter of the heat pump cleaned? Wie oft wird der Filter gereinigt?');
      const log = page.getByRole('log');
      await log.getByText(/Der Filter der Wärmepumpe wird alle sechs Monate gereinigt\./).waitFor();
      const chip = page.getByRole('button', {
        name: text('en', 'chat.citation.open', { n: '1', file: 'Wartung.docx' }),
      });
      await chip.first().click();
      await page
        .getByTestId('citation-passage')
        .getByText(/alle sechs Monate/)
        .waitFor();
      const open = page.getByRole('link', {
        name: text('en', 'chat.citation.openFile', { file: 'Wartung.docx' }),
      });
      const href = await open.getAttribute('href');
      expect(href).toMatch(/^\/api\/v1\/files\/[0-9a-f-]{36}\/content/);
      expect((await page.request.get(`${t.url}${href}`)).status()).toBe(200);
      await page.keyboard.press('Escape');
      expect(await seriousViolations(page)).toEqual([]);

      // Like it with a comment
      const like = page.getByRole('button', { name: text('en', 'chat.feedback.like') }).last();
      await like.click();
      await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
      await page
        .getByRole('button', { name: text('en', 'chat.feedback.open') })
        .last()
        .click();
      await page
        .getByRole('dialog')
        .getByLabel(text('en', 'chat.feedback.comment'))
        .fill('Genau das brauchte ich');
      await page
        .getByRole('dialog')
        .getByRole('button', { name: text('en', 'chat.feedback.save') })
        .click();
      await page.getByText(text('en', 'chat.feedback.saved')).waitFor();

      // An unanswerable question becomes a knowledge gap
      await ask(page, 'What is the warranty period of the solar panels on the roof?');
      await log.getByText(/found nothing/).waitFor();

      // The feedback report shows the answer and its comment
      await page.goto(`${t.url}/feedback-report`);
      const details = page.getByRole('button', {
        name: new RegExp(`^${text('en', 'reports.showDetails')}: How often is the filter`),
      });
      await details.first().click();
      const drawer = page.getByRole('dialog');
      await drawer.getByText('Genau das brauchte ich').waitFor();
      await drawer
        .getByText(/Wartung\.docx/)
        .first()
        .waitFor();
      await page.goto(`${t.url}/feedback-report/knowledge-gaps`);
      await page.getByText('What is the warranty period of the solar panels on the roof?').first().waitFor();
      expect(browser.problems).toEqual([]);
    } catch (error) {
      await failureScreenshot(page, 'chat-failure.png');
      throw await withPageText(page, error);
    } finally {
      await browser.close();
    }
  });

  it('an employee holds a cited conversation through a configured provider, and a visitor uses the public link', async () => {
    const browser = await openBrowser({ locale: 'en-US' });
    const { page } = browser;
    try {
      const dm = await signedInDataManager(t, { language: 'en' });
      const heizung = (await dm.client.post('/divisions', { name: 'Heizung' })).body.id as string;
      const up = await dm.client.upload(`/divisions/${heizung}/files`, [
        { name: 'Wartung.docx', content: await makeDocx(MANUAL) },
      ]);
      const fileId = up.body.results[0].file.id as string;
      for (let i = 0; i < 300 && (await dm.client.get(`/files/${fileId}`)).body.status !== 'ready'; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await dm.client.request('PUT', '/ai-providers/openai', {
        baseUrl: llm.url,
        apiKey: 'sk-e2e-0123456789',
        model: 'gpt-4o-mini',
      });
      // As a real model would: the English question is translated for the German documents (one short call), then
      // answered from the passages.
      llm.setScript({
        text: (call) =>
          call.promptText.includes("Translate the user's question into German")
            ? 'Wie oft wird der Filter der Wärmepumpe gereinigt?'
            : 'The filter is cleaned every six months [1].',
        tokensPerChunk: 1,
        chunkDelayMs: 20,
      });
      const employee = await employeeOf(t, dm, [heizung]);
      const me = (await employee.get('/auth/me')).body;
      const password = 'sicher-Pass-1';

      await signIn(page, `${t.url}/employee/login`, me.userData.email, password, '/employee/chat');
      await newChat(page, 'KI-Fragen', 'Heizung', text('en', 'chat.providers.openai'));
      await ask(page, 'How often is the filter of the heat pump cleaned?');
      const log = page.getByRole('log');
      await log.getByText(/The filter is cleaned every six months/).waitFor();
      await page
        .getByRole('button', { name: text('en', 'chat.citation.open', { n: '1', file: 'Wartung.docx' }) })
        .first()
        .waitFor();
      expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain('alle sechs Monate');

      // The data manager shares a public chat; a visitor passes the bot check and asks
      const chat = await dm.client.post('/chats', {
        name: 'Kundenfragen',
        visibility: 'public',
        divisionIds: [heizung],
      });
      const token = (await dm.client.post(`/chats/${chat.body.id}/share`)).body.shareToken as string;
      const visitor = await openBrowser({ locale: 'en-US' });
      try {
        const v = visitor.page;
        await v.goto(`${t.url}/p/${token}`);
        await v.getByText('Kundenfragen').first().waitFor();
        await solveAltcha(v);
        await v.getByLabel(text('en', 'publicChat.name')).fill('Erika Muster');
        await v.getByRole('button', { name: text('en', 'publicChat.start') }).click();
        await v
          .getByLabel(text('en', 'chat.input'))
          .fill('Wie oft wird der Filter der Wärmepumpe gereinigt?');
        await v.getByRole('button', { name: text('en', 'chat.send') }).click();
        await v
          .getByRole('log')
          .getByText(/alle sechs Monate gereinigt/)
          .waitFor();
        // The visitor sees only their own thread.
        expect(
          await v.getByRole('log').getByText('How often is the filter of the heat pump cleaned?').count(),
        ).toBe(0);
        expect(visitor.problems).toEqual([]);
      } catch (error) {
        await failureScreenshot(visitor.page, 'public-chat-failure.png');
        throw await withPageText(visitor.page, error);
      } finally {
        await visitor.close();
      }
      expect(browser.problems).toEqual([]);
    } catch (error) {
      await failureScreenshot(page, 'chat-provider-failure.png');
      throw await withPageText(page, error);
    } finally {
      await browser.close();
    }
  });
});
