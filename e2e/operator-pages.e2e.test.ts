import { readFileSync } from 'node:fs';
import { LANGUAGE_NAMES, type Language } from '@werkwissen/shared';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  signedInAdmin,
  signedInDataManager,
  type TestServer,
} from '../apps/server/test/support/test-server.ts';
import { seriousViolations } from './support/axe.ts';
import { missingKeys, openBrowser } from './support/browser.ts';
import { passSecondFactorInBrowser } from './support/second-factor.ts';
import { startAppServer, text } from './support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startAppServer();
});
afterAll(() => t?.close());

describe.each(['de', 'en', 'ar'] as Language[])('the operator’s mail and log pages in %s', (lang) => {
  it('an edited invitation template writes the next invitation; the activity log filters and exports it', async () => {
    const admin = await signedInAdmin(t);
    expect((await admin.patch('/auth/me', { language: lang })).status).toBe(200);
    const browser = await openBrowser({ locale: lang });
    // Not in the sandboxed mail frames, which have no storage of their own.
    await browser.context.addInitScript(() => {
      if (window === window.top) localStorage.setItem('i18n-check', '1');
    });
    const { page } = browser;
    try {
      await page.goto(`${t.url}/admin/auth/login`);
      await page.locator('input[name=email]').fill(ADMIN.email);
      await page.locator('input[name=password]').fill(ADMIN.password);
      await page.locator('form button[type=submit]').click();
      await passSecondFactorInBrowser(page, t, ADMIN.email);
      await page.waitForURL(`${t.url}/admin/dashboard`);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');

      // Edit the invitation in the invitee's language, with a variable inserted from the list.
      await page.getByRole('link', { name: text(lang, 'admin.templates.menu') }).click();
      await page.waitForURL(`${t.url}/admin/email-templates`);
      await page.getByRole('link', { name: text(lang, 'admin.templates.kinds.setPassword') }).click();
      await page.waitForURL(`${t.url}/admin/email-templates/template/setPassword`);
      await page.getByRole('tab', { name: LANGUAGE_NAMES[lang] }).click();
      const stamp = `${lang}-${Date.now()}`;
      const subject = page.getByLabel(text(lang, 'admin.templates.subject'), { exact: true });
      await subject.fill(`E2E ${stamp} `);
      await page.getByText('{{company}}', { exact: true }).click();
      const body = page.getByLabel(text(lang, 'admin.templates.body'), { exact: true });
      await body.fill(`Moin {{name}}, Zeile ${stamp}.\n\n[Los]({{actionUrl}})`);
      await page
        .getByTestId('preview-subject')
        .filter({ hasText: `E2E ${stamp}` })
        .waitFor();
      await page.getByRole('button', { name: text(lang, 'common.save') }).click();
      await page.getByText(text(lang, 'admin.templates.saved')).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // The next invitation in that language is written from it.
      const dm = await signedInDataManager(t, { language: lang, companyName: `Firma ${stamp}` });
      // Only a data manager with a confirmed address sends invitations.
      const verify = await t.smtp!.waitFor(
        (m) => m.to.includes(dm.email) && m.link?.includes('/verify?') === true,
      );
      const token = new URL(verify.link!).searchParams.get('token');
      expect((await t.client().post('/auth/verify-email', { token })).status).toBe(200);
      const invitee = `eingeladen-${stamp}@firma.example`;
      const created = await dm.client.post('/employees', {
        email: invitee,
        firstName: 'Ella',
        lastName: 'Wagner',
        language: lang,
        divisionIds: [],
      });
      expect(created.status).toBe(201);
      const mail = await t.smtp!.waitFor((m) => m.to.includes(invitee));
      expect(mail.subject).toBe(`E2E ${stamp} Firma ${stamp}`);
      expect(mail.text).toContain(`Moin Ella, Zeile ${stamp}.`);
      expect(mail.link).toContain('/setPassword?');

      // The activity log: the change is found by action and class, and exported exactly as filtered.
      await page.getByRole('link', { name: text(lang, 'admin.activity.menu') }).click();
      await page.waitForURL(`${t.url}/admin/activity-log`);
      await page.getByRole('heading', { name: text(lang, 'admin.activity.title') }).waitFor();
      await page
        .getByLabel(text(lang, 'admin.activity.filters.action'), { exact: true })
        .fill('updateEmailTemplate');
      const status = page.getByLabel(text(lang, 'admin.activity.filters.status'), { exact: true });
      await status.selectOption('2xx');
      const row = page.getByRole('row').filter({ hasText: 'updateEmailTemplate' }).first();
      await row.waitFor();
      await row.getByRole('button', { name: text(lang, 'admin.activity.showDetails') }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('cell', { name: `E2E ${stamp} {{company}}` }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: text(lang, 'common.close') }).click();

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: text(lang, 'admin.activity.export') }).click(),
      ]);
      const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
      const [header, ...rows] = parse(csv) as string[][];
      const column = (name: string) => header!.indexOf(name);
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r[column('action')]))).toEqual(new Set(['updateEmailTemplate']));
      expect(rows.every((r) => r[column('statusCode')]!.startsWith('2'))).toBe(true);
      expect(rows.some((r) => r[column('changes')]!.includes(`E2E ${stamp}`))).toBe(true);

      // Refused requests only: the change is not among them.
      await status.selectOption('4xx');
      await page.getByText(text(lang, 'admin.activity.empty')).waitFor();

      expect(await missingKeys(page)).toEqual([]);
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
