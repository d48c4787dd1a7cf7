import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../apps/server/src/db/schema/index.ts';
import {
  insertChat,
  insertDivision,
  insertExchange,
  insertPassage,
  insertThread,
} from '../apps/server/test/support/chat-fixtures.ts';
import { signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { artifactPath, openBrowser } from './support/browser.ts';
import { overflows } from './support/layout.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer();
});
afterAll(() => t?.close());

/** Long words, addresses and file names, as German documents and their users bring them. */
const LONG_FILE =
  'Betriebsanleitung_Wärmepumpenwartungsintervallberechnung_Heizungsanlage_Kellergeschoss_2024.docx';
const LONG_CHAT = 'Qualitätssicherungsdokumentationsrichtlinienfragen';
const LONG_QUESTION =
  'Wie oft muss der Grundwasserwärmepumpenfilter laut Instandhaltungsverpflichtungsvereinbarung gereinigt werden?';
const LONG_ANSWER =
  'Laut Instandhaltungsverpflichtungsvereinbarung wird der Grundwasserwärmepumpenfilter halbjährlich gereinigt; ' +
  'die Kundendienstmitarbeiterinnenbenachrichtigung erfolgt an wartungsplanung.kellergeschoss@heizungsanlagen-müller.example [1].';

/** A company whose division, files, chat and feedback all carry the longest texts a German user writes. */
async function seed(language: string) {
  const dm = await signedInDataManager(t, {
    language,
    email: `wartungsplanung.kellergeschoss.${language}.${Date.now()}@heizungsanlagen-mueller.example`,
    lastName: 'Schmidt-Leutheusser-Schnarrenberger',
  });
  const { id: userId, companyId } = dm.me.userData as { id: string; companyId: string };
  const division = await insertDivision(t, companyId, 'Gebäudetechnikinstandhaltung');
  const { file, passageId } = await insertPassage(t, {
    companyId,
    divisionId: division.id,
    fileName: LONG_FILE,
    text: LONG_ANSWER,
    page: 3,
  });
  // A file still being processed (its row shows a progress bar and a cancel button) and one that failed.
  await t.server.ctx.db.insert(files).values([
    {
      companyId,
      divisionId: division.id,
      name: `In_Bearbeitung_${LONG_FILE}`,
      sizeBytes: 7 * 1024 * 1024,
      mimeType: 'application/pdf',
      kind: 'pdf' as const,
      sha256: `processing-${language}`,
      storageKey: `test/processing-${language}`,
      status: 'embedding' as const,
      progress: 40,
    },
    {
      companyId,
      divisionId: division.id,
      name: `Passwortgeschützt_${LONG_FILE}`,
      sizeBytes: 2500,
      mimeType: 'application/pdf',
      kind: 'pdf' as const,
      sha256: `failed-${language}`,
      storageKey: `test/failed-${language}`,
      status: 'failed' as const,
      errorCode: 'FILE_PASSWORD_PROTECTED',
    },
  ]);
  const tag = (await dm.client.post('/tags', { name: 'Verbesserungsvorschlag', color: 'warning' })).body;
  const chat = await insertChat(t, {
    companyId,
    ownerId: userId,
    name: LONG_CHAT,
    divisionIds: [division.id],
  });
  const thread = await insertThread(t, { companyId, chatId: chat.id, userId });
  const citation = {
    n: 1,
    passageId,
    fileId: file.id,
    fileName: LONG_FILE,
    divisionId: division.id,
    page: 3,
    headingPath: ['Instandhaltungsverpflichtungsvereinbarung'],
  };
  for (const question of [LONG_QUESTION, 'Wer benachrichtigt den Kundendienst?']) {
    const { answerId } = await insertExchange(t, thread, {
      question,
      answer: LONG_ANSWER,
      citations: [citation],
    });
    const res = await dm.client.request('PUT', `/messages/${answerId}/feedback`, {
      liked: false,
      mood: 'negative',
      rating: 2,
      comment: 'Die Antwort nennt das Wartungsintervall nicht.',
      tagId: tag.id,
    });
    expect(res.status).toBe(200);
  }
  return { ...dm, divisionId: division.id, chatId: chat.id };
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${t.url}/login`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL(`${t.url}/dashboard`);
}

describe.each(['de', 'ar'])('tables and cards fit the screen in %s', (lang) => {
  it.each([390, 1440])(
    'at %i px: the dashboard, the file list, the feedback report and the chat',
    async (width) => {
      const dm = await seed(lang);
      const browser = await openBrowser({ locale: lang, width });
      const { page } = browser;
      const shot = (what: string) => artifactPath(`fit-${what}-${lang}-${width}.png`);
      try {
        await signIn(page, dm.email, dm.password);
        const found: string[] = [];

        await page.getByTestId('plan-card').locator('[role=progressbar]').waitFor();
        await page.screenshot({ path: shot('dashboard'), fullPage: true });
        // The company's name in the header is whole, also beside the header's icons on a phone.
        const name = page.getByTestId('shell-company-name');
        expect(await name.textContent()).toBe('Müller Haustechnik GmbH');
        expect(
          await name.evaluate(
            (el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1,
          ),
        ).toBe(true);
        found.push(...(await overflows(page, width >= 1440)).map((o) => `dashboard: ${o}`));
        // A figure's label may wrap beside its icon, but without a gap inside it (the overline's 2.66 line height).
        const labelLines = await page
          .locator('[data-testid^=figure-] h2')
          .evaluateAll((labels) =>
            labels.map(
              (l) => parseFloat(getComputedStyle(l).lineHeight) / parseFloat(getComputedStyle(l).fontSize),
            ),
          );
        // Files, questions, answered, satisfaction, storage and the three sales figures (offers, unpaid, overdue).
        expect(labelLines.length).toBe(8);
        for (const ratio of labelLines) expect(ratio).toBeLessThanOrEqual(1.6);

        await page.goto(`${t.url}/divisions/${dm.divisionId}`);
        await page.getByRole('cell', { name: LONG_FILE, exact: true }).waitFor();
        await page.getByRole('progressbar').first().waitFor();
        await page.screenshot({ path: shot('files'), fullPage: true });
        found.push(...(await overflows(page, width >= 1440)).map((o) => `file list: ${o}`));

        await page.goto(`${t.url}/feedback-report`);
        await page.locator('[data-feedback-id]').first().waitFor();
        await page.getByRole('table').getByText('Verbesserungsvorschlag').first().waitFor();
        await page.screenshot({ path: shot('feedback'), fullPage: true });
        found.push(...(await overflows(page, width >= 1440)).map((o) => `feedback report: ${o}`));

        await page.goto(`${t.url}/chat?chat=${dm.chatId}`);
        await page.getByRole('log').getByText(LONG_QUESTION).waitFor();
        await page.screenshot({ path: shot('chat'), fullPage: true });
        found.push(...(await overflows(page, width >= 1440)).map((o) => `chat: ${o}`));

        expect(found).toEqual([]);
        expect(browser.problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});

describe('the navigation', () => {
  it('collapsed, shows the logo mark whole and opens over the content while the pointer is on it (Arabic)', async () => {
    const dm = await signedInDataManager(t, { language: 'ar' });
    const browser = await openBrowser({ locale: 'ar', width: 1440 });
    const { page } = browser;
    try {
      await browser.context.addInitScript(() => localStorage.setItem('vertical-nav-collapsed', 'true'));
      await signIn(page, dm.email, dm.password);
      const nav = page.getByTestId('vertical-nav');
      const paper = nav.locator('..');
      const main = page.getByRole('main');
      await page.getByTestId('plan-card').locator('[role=progressbar]').waitFor();
      const closed = (await paper.boundingBox())!;
      expect(closed.width).toBe(72);
      const mark = (await nav.getByTestId('logo-mark').boundingBox())!;
      expect(mark.x).toBeGreaterThanOrEqual(closed.x);
      expect(mark.x + mark.width).toBeLessThanOrEqual(closed.x + closed.width);
      const before = (await main.boundingBox())!;

      await nav.hover();
      await expect.poll(async () => (await paper.boundingBox())!.width).toBe(260);
      await page.screenshot({ path: artifactPath('nav-collapsed-open-ar-1440.png') });
      // It opens towards the content (leftwards in Arabic), which stays where it was.
      expect((await paper.boundingBox())!.x + 260).toBeCloseTo(closed.x + closed.width, 0);
      expect(await main.boundingBox()).toEqual(before);
      expect(await nav.getByRole('link', { name: text('ar', 'nav.dashboard') }).textContent()).toBe(
        text('ar', 'nav.dashboard'),
      );

      await page.mouse.move(400, 600);
      await expect.poll(async () => (await paper.boundingBox())!.width).toBe(72);
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('horizontal, shows the logo in the navbar', async () => {
    const dm = await signedInDataManager(t, { language: 'de' });
    const browser = await openBrowser({ locale: 'de', width: 1440 });
    const { page } = browser;
    try {
      await browser.context.addInitScript(() => localStorage.setItem('nav-type', 'horizontal'));
      await signIn(page, dm.email, dm.password);
      await page.getByTestId('horizontal-nav').waitFor();
      const logo = page.getByRole('banner').locator('img[src="/assets/img/logo.png"]');
      await logo.waitFor();
      expect((await logo.boundingBox())!.width).toBe(100);
      await page.screenshot({ path: artifactPath('nav-horizontal-de-1440.png') });
    } finally {
      await browser.close();
    }
  });
});
