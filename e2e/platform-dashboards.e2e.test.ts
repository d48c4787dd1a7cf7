import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, users } from '../apps/server/src/db/schema/index.ts';
import { conversationOf, insertDivision, insertExchange } from '../apps/server/test/support/chat-fixtures.ts';
import { createUser, signedInAs } from '../apps/server/test/support/factories.ts';
import type { TestServer } from '../apps/server/test/support/test-server.ts';
import { artifactPath, openBrowser } from './support/browser.ts';
import { overflows } from './support/layout.ts';
import { passSecondFactorInBrowser } from './support/second-factor.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
const DAY = 86_400_000;
const CHARTS = [
  'chart-growth',
  'chart-active-users',
  'chart-files',
  'chart-storage',
  'chart-questions',
  'chart-quality',
  'chart-failed',
];

/** A month of activity in two companies: sign-ins, questions with feedback, files (one failed). */
async function seed() {
  const db = t.server.ctx.db;
  for (const name of ['Heiztechnik Müller GmbH', 'Sanitär Öztürk & Söhne']) {
    const dm = await signedInAs(t, 'DataManager');
    await db.execute(sql`update companies set name = ${name} where id = ${dm.companyId}`);
    const division = await insertDivision(t, dm.companyId!, 'Kundendienst');
    const thread = await conversationOf(t, dm.user);
    for (let i = 0; i < 24; i += 3) {
      const { answerId } = await insertExchange(t, thread, {
        question: `Frage ${i}?`,
        noAnswer: i % 2 === 1,
        at: new Date(Date.now() - i * DAY),
      });
      const res = await dm.client.request('PUT', `/messages/${answerId}/feedback`, { liked: i % 4 === 0 });
      expect(res.status).toBe(200);
    }
    await db.insert(files).values(
      [0, 8, 15].map((daysAgo, i) => ({
        companyId: dm.companyId!,
        divisionId: division.id,
        name: `Wartungshandbuch-${i}.pdf`,
        sizeBytes: (i + 1) * 3 * 1024 * 1024,
        mimeType: 'application/pdf',
        kind: 'pdf' as const,
        sha256: `e2e-${name}-${i}`,
        storageKey: `test/e2e-${i}`,
        status: i === 1 ? ('failed' as const) : ('ready' as const),
        createdAt: new Date(Date.now() - daysAgo * DAY),
        updatedAt: new Date(Date.now() - daysAgo * DAY),
      })),
    );
  }
}

beforeAll(async () => {
  t = await startAppServer();
  await seed();
});
afterAll(() => t?.close());

/** An operator whose interface language is `lang`, signed in through the admin sign-in page. */
async function signInOperator(page: Page, lang: string) {
  const admin = await createUser(t, 'Administrator');
  await t.server.ctx.db.execute(sql`update ${users} set language = ${lang} where id = ${admin.user.id}`);
  await page.goto(`${t.url}/admin/auth/login`);
  await page.locator('input[name=email]').fill(admin.user.email);
  await page.locator('input[name=password]').fill(admin.password);
  await page.locator('form button[type=submit]').click();
  await passSecondFactorInBrowser(page, t, admin.user.email);
  await page.waitForURL(`${t.url}/admin/dashboard`);
}

/** Every chart drawn, and the date labels under each one apart from each other. */
async function chartProblems(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const id of CHARTS) {
    const chart = page.getByTestId(id);
    await chart.locator('svg .MuiChartsAxis-directionX .MuiChartsAxis-tickLabel').first().waitFor();
    const boxes = await chart
      .locator('svg .MuiChartsAxis-directionX .MuiChartsAxis-tickLabel')
      .evaluateAll((labels) =>
        labels
          .map((l) => l.getBoundingClientRect())
          .filter((b) => b.width > 0)
          .map((b) => ({ left: b.left, right: b.right }))
          .sort((a, b) => a.left - b.left),
      );
    if (boxes.length < 2) found.push(`${id}: ${boxes.length} date label(s)`);
    for (let i = 1; i < boxes.length; i++) {
      if (boxes[i]!.left < boxes[i - 1]!.right)
        found.push(
          `${id}: date labels ${i - 1} and ${i} overlap (${boxes[i - 1]!.right} > ${boxes[i]!.left})`,
        );
    }
  }
  return found;
}

describe.each(['de', 'ar'])('the platform dashboards in %s', (lang) => {
  it.each([390, 1440])(
    'at %i px: the admin dashboard and the analysis area draw every chart and fit',
    async (width) => {
      const browser = await openBrowser({ locale: lang, width });
      const { page } = browser;
      const shot = (what: string) => artifactPath(`${what}-${lang}-${width}.png`);
      try {
        await signInOperator(page, lang);
        expect(await page.locator('html').getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
        const found: string[] = [];

        await page.getByRole('heading', { name: text(lang, 'admin.dashboard.overTime') }).waitFor();
        found.push(...(await chartProblems(page)).map((p) => `admin dashboard: ${p}`));
        await page.screenshot({ path: shot('admin-dashboard'), fullPage: true });
        found.push(...(await overflows(page, width >= 1440)).map((o) => `admin dashboard: ${o}`));

        await page.goto(`${t.url}/analysis/dashboard`);
        await page.getByText(text(lang, 'analysis.intro')).waitFor();
        found.push(...(await chartProblems(page)).map((p) => `analysis: ${p}`));
        await page.getByTestId('chart-storage').screenshot({ path: shot('analysis-storage-chart') });
        await page.getByTestId('chart-quality').screenshot({ path: shot('analysis-quality-chart') });
        // A custom period: the picker's date fields must fit as well.
        await page.getByRole('button', { name: text(lang, 'admin.dashboard.period.custom') }).click();
        await page.locator('#period-from').waitFor();
        await page.screenshot({ path: shot('analysis-dashboard'), fullPage: true });
        found.push(...(await overflows(page, width >= 1440)).map((o) => `analysis: ${o}`));

        expect(found).toEqual([]);
        expect(browser.problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
