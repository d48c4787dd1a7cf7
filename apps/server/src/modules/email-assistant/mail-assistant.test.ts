import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailboxUser, rawMail, TestDovecot } from '../../../test/support/dovecot.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { type ReceivedMail, SmtpSink } from '../../../test/support/smtp-sink.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { emailInbound } from '../../db/schema/index.ts';

const box: MailboxUser = { user: 'assistent@firma.example', pass: 'imap-pass-1' };
const ALLOWED = 'chefin@kunde.example';
const TEXT =
  'To bleed the radiator, turn the bleed valve a quarter turn counterclockwise until water comes out.';

let dataDir: string;
let t: TestServer;
let dovecot: TestDovecot;
let smtp: SmtpSink;
let settingId: string;
let dm: Awaited<ReturnType<typeof companyWithFile>>;
let n = 0;

const start = () =>
  startTestServer({
    dataDir,
    env: {
      OUTBOUND_ALLOW_PRIVATE: 'true',
      MAIL_ASSISTANT_POLL_SECONDS: '1',
      MAIL_ASSISTANT_MAX_MAIL_MB: '1',
    },
  });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ww-assistant-'));
  dovecot = await TestDovecot.start([box]);
  smtp = new SmtpSink({ auth: { user: box.user, pass: box.pass } });
  await smtp.start();
  t = await start();
  dm = await companyWithFile(t, TEXT, 'Heizung');
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
    // The mailbox's server writes `Authentication-Results: mx.firma.example; ...`.
    authservId: 'mx.firma.example',
  });
  expect(created.status).toBe(201);
  settingId = created.body.id;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
  await dovecot?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Delivers a mail into the assistant's mailbox (below `top`, header lines as a receiving server adds them). */
async function deliver(headers: Record<string, string>, body: string, top = ''): Promise<string> {
  const messageId = `<m${++n}-${Date.now()}@kunde.example>`;
  await dovecot.deliver(
    box,
    top +
      rawMail(
        { From: ALLOWED, To: box.user, Subject: 'Radiator', 'Message-ID': messageId, ...headers },
        body,
      ),
  );
  return messageId;
}

const replyTo = (messageId: string) => (m: ReceivedMail) => m.raw.includes(`In-Reply-To: ${messageId}`);

/** How the assistant stored a mail, once it has read it. */
async function stored(messageId: string, status?: string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const [row] = await t.server.ctx.db
      .select()
      .from(emailInbound)
      .where(eq(emailInbound.messageId, messageId));
    if (row && (!status || row.status === status)) return row;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${messageId} not stored${status ? ` as ${status}` : ''}`);
}

describe('the e-mail assistant', () => {
  it('answers an allowed sender from the division, in the thread, marked as an automatic reply', async () => {
    const question = await deliver(
      { Subject: 'Re: AW: Radiator', References: '<start@kunde.example>' },
      'How do I bleed the radiator?\n\nOn Monday Bob wrote:\n> something older',
    );
    const reply = await smtp.waitFor(replyTo(question), 60_000);
    const parsed = await simpleParser(reply.raw);
    expect(reply.to).toEqual([ALLOWED]);
    expect(parsed.subject).toBe('Re: Radiator');
    expect(parsed.inReplyTo).toBe(question);
    expect(parsed.references).toEqual(['<start@kunde.example>', question]);
    expect(parsed.headers.get('auto-submitted')).toBe('auto-replied');
    expect(parsed.from?.value[0]?.address).toBe(box.user);
    expect(parsed.text).toContain('quarter turn counterclockwise');
    expect(parsed.text).toMatch(/Sources:\n\[1\] Heizung\.docx/);
    // Read, not marked read.
    const client = await dovecot.client(box);
    await client.mailboxOpen('INBOX', { readOnly: true });
    const seen = await client.search({ seen: true }, { uid: true });
    await client.logout();
    expect(seen).toEqual([]);
    const row = await stored(question, 'answered');
    expect(row.question).toBe('How do I bleed the radiator?');
    // The conversation is in the company's chat list, from e-mail.
    const chats = (await dm.client.get('/chats')).body.items;
    expect(chats).toEqual([
      expect.objectContaining({ name: box.user, source: 'email', visibility: 'public' }),
    ]);
  });

  it('leaves other senders, auto-replies, bounces, lists and its own mails unanswered', async () => {
    const stranger = await deliver({ From: 'fremd@anders.example' }, 'How do I bleed the radiator?');
    const auto = await deliver({ 'Auto-Submitted': 'auto-replied' }, 'I am out of office.');
    const bounce = await deliver(
      { From: 'MAILER-DAEMON@kunde.example', 'Return-Path': '<>' },
      'Delivery failed: How do I bleed the radiator?',
    );
    const list = await deliver({ 'List-Id': '<heizung.lists.example>' }, 'How do I bleed the radiator?');
    const ours = await deliver({ From: box.user }, 'How do I bleed the radiator?');
    const precedence = await deliver({ Precedence: 'bulk' }, 'How do I bleed the radiator?');
    // A question behind them is answered, so the ones before it were read and judged.
    const after = await deliver({}, 'How do I bleed the radiator, please?');
    await smtp.waitFor(replyTo(after), 60_000);
    const reasons = await Promise.all(
      [stranger, auto, bounce, list, ours, precedence].map(async (id) => (await stored(id)).reason),
    );
    expect(reasons).toEqual([
      'not-allowed',
      'auto-reply',
      'bounce',
      'mailing-list',
      'ourselves',
      'auto-reply',
    ]);
    for (const id of [stranger, auto, bounce, list, ours, precedence])
      expect(smtp.mails.filter(replyTo(id))).toEqual([]);
  });

  it('reads the sender check of its own mail server only, never one the sender wrote into the mail', async () => {
    // The sender claims every check passed; the mailbox's server, whose header is on top, found SPF failing.
    const forged = await deliver(
      { 'Authentication-Results': 'mx.firma.example; spf=pass; dkim=pass; dmarc=pass' },
      'How do I bleed the radiator?',
      'Authentication-Results: mx.firma.example; spf=fail smtp.mailfrom=kunde.example; dkim=none\r\n',
    );
    // A verdict of another server, whoever wrote it, neither vouches nor refuses.
    const vouched = await deliver(
      { 'Authentication-Results': 'relay.kunde.example; spf=fail; dkim=fail' },
      'How do I bleed the radiator, then?',
      'Authentication-Results: mx.firma.example; spf=pass smtp.mailfrom=kunde.example; dkim=pass\r\n',
    );
    await smtp.waitFor(replyTo(vouched), 60_000);
    expect((await stored(forged)).reason).toBe('unauthenticated');
    expect(smtp.mails.filter(replyTo(forged))).toEqual([]);
  });

  it('never downloads a mail over the size limit, and notes why it was not answered', async () => {
    const line = `${'Photo of the radiator, attached as text. '.padEnd(76, 'x')}\r\n`;
    const large = await deliver({ Subject: 'Radiator photos' }, line.repeat(20_000));
    const after = await deliver({}, 'How do I bleed the radiator without the photos?');
    await smtp.waitFor(replyTo(after), 60_000);
    const row = await stored(large);
    expect(row).toMatchObject({
      status: 'ignored',
      reason: 'too-large',
      fromAddress: ALLOWED,
      subject: 'Radiator photos',
    });
    expect(smtp.mails.filter(replyTo(large))).toEqual([]);
  });

  it('loses and duplicates nothing when the worker restarts in the middle of a mailbox', async () => {
    await t.close();
    const questions: string[] = [];
    for (let i = 0; i < 6; i++) questions.push(await deliver({}, `How do I bleed radiator number ${i}?`));
    t = await start();
    await smtp.waitFor(replyTo(questions[0]!), 60_000);
    await t.close();
    t = await start();
    for (const id of questions) await stored(id, 'answered');
    for (const id of questions) expect(smtp.mails.filter(replyTo(id))).toHaveLength(1);
  });

  it('reads a mailbox whose UIDVALIDITY changed anew, answering only mails it had not seen', async () => {
    const before = await deliver({}, 'How do I bleed the radiator before the move?');
    await smtp.waitFor(replyTo(before), 60_000);
    const client = await dovecot.client(box);
    const old = await client.mailboxOpen('INBOX', { readOnly: true });
    await client.logout();
    // The mailbox is replaced by one with a new UIDVALIDITY, and the old mail comes back into it (as after a server
    // migration): it is known by its Message-ID and not answered again.
    await new Promise((r) => setTimeout(r, 1100));
    await dovecot.replaceMailbox(box);
    const check = await dovecot.client(box);
    const fresh = await check.mailboxOpen('INBOX', { readOnly: true });
    await check.logout();
    expect(fresh.uidValidity).not.toBe(old.uidValidity);
    await dovecot.deliver(
      box,
      rawMail(
        { From: ALLOWED, To: box.user, Subject: 'Radiator', 'Message-ID': before },
        'How do I bleed the radiator before the move?',
      ),
    );
    const afterMove = await deliver({}, 'How do I bleed the radiator after the move?');
    await smtp.waitFor(replyTo(afterMove), 60_000);
    expect(smtp.mails.filter(replyTo(before))).toHaveLength(1);
    const setting = await t.server.ctx.db.execute<{ uid_validity: string }>(
      sql`select uid_validity from email_settings where id = ${settingId}`,
    );
    expect(setting.rows[0]!.uid_validity).toBe(String(fresh.uidValidity));
  });
});
