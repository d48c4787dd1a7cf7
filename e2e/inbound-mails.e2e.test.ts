import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailboxUser, rawMail, TestDovecot } from '../apps/server/test/support/dovecot.ts';
import { companyWithFile } from '../apps/server/test/support/knowledge.ts';
import { SmtpSink } from '../apps/server/test/support/smtp-sink.ts';
import type { TestServer } from '../apps/server/test/support/test-server.ts';
import { seriousViolations } from './support/axe.ts';
import { artifactPath, missingKeys, openBrowser, signInInBrowser } from './support/browser.ts';
import { overflows } from './support/layout.ts';
import { startAppServer, text } from './support/server.ts';

/** One mailbox per company (a trial has one), each with its own data manager's language. */
const boxes: Record<'de' | 'ar', MailboxUser> = {
  de: { user: 'assistent@heizung-de.example', pass: 'imap-pass-de' },
  ar: { user: 'assistent@heizung-ar.example', pass: 'imap-pass-ar' },
};
const ALLOWED = 'meisterin@kunde.example';
const STRANGER = 'werbung@fremd.example';
const TEXT =
  'Der Heizkörper wird entlüftet, indem man das Entlüftungsventil eine Vierteldrehung gegen den Uhrzeigersinn dreht, bis Wasser austritt.';

let t: TestServer;
let dovecot: TestDovecot;
let smtp: SmtpSink;

beforeAll(async () => {
  dovecot = await TestDovecot.start(Object.values(boxes));
  smtp = new SmtpSink({ auth: Object.values(boxes).map((b) => ({ user: b.user, pass: b.pass })) });
  await smtp.start();
  t = await startAppServer({ OUTBOUND_ALLOW_PRIVATE: 'true' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
  await dovecot?.stop();
});

/** A header value in RFC 2047's encoded words, as mail programs send a subject that is not ASCII. */
const encoded = (value: string) => `=?UTF-8?B?${Buffer.from(value).toString('base64')}?=`;

describe.each([
  { lang: 'de', locale: 'de-DE', width: 1400, subject: 'Heizkörper entlüften' },
  { lang: 'ar', locale: 'ar', width: 390, subject: 'سؤال عن تنفيس المدفأة' },
] as const)('the incoming mails of a mailbox in the browser ($lang)', ({ lang, locale, width, subject }) => {
  it('lists each mail the assistant read with its fate: the answered question and the ignored stranger', async () => {
    const box = boxes[lang];
    const dm = await companyWithFile(t, TEXT, 'Heizung', { language: lang });
    const created = await dm.client.post('/email-settings', {
      fromEmail: box.user,
      allowedEmails: [ALLOWED],
      divisionId: dm.divisionId,
      isPrivate: false,
      smtpHost: '127.0.0.1',
      smtpPort: smtp.port,
      imapHost: '127.0.0.1',
      imapPort: dovecot.port,
      smtpEmail: box.user,
      userName: box.user,
      password: box.pass,
      security: 'none',
    });
    expect(created.status).toBe(201);
    const settingId = created.body.id as string;
    // The assistant answers what arrives after its first read of the mailbox: deliver once it has read it.
    await expect
      .poll(
        async () =>
          (await dm.client.get('/email-settings')).body.items.find((s: { id: string }) => s.id === settingId)
            ?.mailbox.checkedAt,
        { timeout: 30_000, interval: 250 },
      )
      .toBeTruthy();

    const question = `<frage-${lang}-${Date.now()}@kunde.example>`;
    await dovecot.deliver(
      box,
      rawMail(
        { From: ALLOWED, To: box.user, Subject: encoded(subject), 'Message-ID': question },
        'Wie wird der Heizkörper entlüftet?',
      ),
    );
    await dovecot.deliver(
      box,
      rawMail(
        { From: STRANGER, To: box.user, Subject: 'Sonderangebot', 'Message-ID': `<w-${lang}@fremd.example>` },
        'Kaufen Sie jetzt unsere Heizkörper!',
      ),
    );
    const reply = await smtp.waitFor((m) => m.raw.includes(`In-Reply-To: ${question}`), 60_000);
    expect(reply.text).toContain('Vierteldrehung gegen den Uhrzeigersinn');
    // The page shows the mails as they are when it loads: both fates are final first (the stranger's mail may be
    // read in a later round than the question, and the answered one is marked so after its reply has left).
    await expect
      .poll(
        async () =>
          ((await dm.client.get(`/email-settings/${settingId}/mails?pageSize=100`)).body.items ?? [])
            .map((m: { fate: string }) => m.fate)
            .sort(),
        { timeout: 60_000, interval: 250 },
      )
      .toEqual(['answered', 'ignored']);

    const browser = await openBrowser({ locale, width });
    const { page } = browser;
    await browser.context.addInitScript((language) => {
      localStorage.setItem('i18n-check', '1');
      localStorage.setItem('language', language);
    }, lang);
    try {
      await signInInBrowser(page, t.url, dm);
      await page.goto(`${t.url}/email-settings`);
      await page
        .getByRole('link', { name: `${text(lang, 'emailSettings.mails.open')}: ${box.user}` })
        .click();
      await page.waitForURL(`${t.url}/email-settings/${settingId}/mails`);
      await page.getByRole('heading', { name: text(lang, 'emailSettings.mails.title') }).waitFor();
      await page
        .getByText(text(lang, 'emailSettings.mails.intro', { email: `\u2068${box.user}\u2069` }))
        .waitFor();

      // The answered question: its subject opens the conversation, its fate says answered.
      const table = page.getByRole('table');
      const answered = table.getByRole('row').filter({ hasText: subject });
      await answered.getByText(text(lang, 'emailSettings.mails.fates.answered'), { exact: true }).waitFor();
      await answered.getByText(ALLOWED).waitFor();
      expect(
        await answered
          .getByRole('link', {
            name: `${subject} – ${text(lang, 'emailSettings.mails.openChat')}`,
          })
          .count(),
      ).toBe(1);
      // The stranger's mail: ignored, and why.
      const ignored = table.getByRole('row').filter({ hasText: 'Sonderangebot' });
      await ignored.getByText(text(lang, 'emailSettings.mails.fates.ignored'), { exact: true }).waitFor();
      await ignored.getByText(text(lang, 'emailSettings.mails.reasons.not-allowed')).waitFor();
      await ignored.getByText(STRANGER).waitFor();

      expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      expect(await overflows(page, false)).toEqual([]);
      await page.screenshot({ path: artifactPath(`inbound-mails-${lang}.png`), fullPage: true });
      expect(await missingKeys(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);

      // Filtered by fate: only the ignored mail is left.
      await page.getByLabel(text(lang, 'emailSettings.mails.columns.fate')).selectOption('ignored');
      await expect.poll(() => table.getByRole('row').filter({ hasText: subject }).count()).toBe(0);
      await ignored.getByText(STRANGER).waitFor();
    } finally {
      await browser.close();
    }
  });
});
