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
/** A second mailbox with mail in it before its setting is saved. */
const oldBox: MailboxUser = { user: 'archiv@firma.example', pass: 'imap-pass-2' };
const ALLOWED = 'chefin@kunde.example';
const DAY = 24 * 60 * 60 * 1000;
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
  dovecot = await TestDovecot.start([box, oldBox]);
  smtp = new SmtpSink({ auth: [box, oldBox].map((b) => ({ user: b.user, pass: b.pass })) });
  await smtp.start();
  t = await start();
  dm = await companyWithFile(t, TEXT, 'Heizung');
  const created = await dm.client.post('/email-settings', settingOf(box));
  expect(created.status).toBe(201);
  settingId = created.body.id;
}, 180_000);

/** An e-mail setting of the company for one of the test mailboxes (sending by the one SMTP sink). */
function settingOf(mailbox: MailboxUser, overrides: Record<string, unknown> = {}) {
  return {
    fromEmail: mailbox.user,
    allowedEmails: [ALLOWED],
    divisionId: dm.divisionId,
    isPrivate: false,
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    imapHost: '127.0.0.1',
    imapPort: dovecot.port,
    smtpEmail: mailbox.user,
    userName: mailbox.user,
    password: mailbox.pass,
    security: 'none',
    // The mailbox's server writes `Authentication-Results: mx.firma.example; ...`.
    authservId: 'mx.firma.example',
    ...overrides,
  };
}
afterAll(async () => {
  if (process.env.DEBUG_LOGS)
    for (const l of t?.logs ?? [])
      if (/"level":[4-6]0/.test(l) || /mailbox|mail not|mail waits/i.test(l)) console.log(l.slice(0, 600));
  await t?.close();
  await smtp?.stop();
  await dovecot?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Delivers a mail into the assistant's mailbox (below `top`, header lines as a receiving server adds them). */
async function deliver(
  headers: Record<string, string>,
  body: string,
  top = '',
  into: { mailbox?: MailboxUser; receivedAt?: Date } = {},
): Promise<string> {
  const messageId = `<m${++n}-${Date.now()}@kunde.example>`;
  const mailbox = into.mailbox ?? box;
  await dovecot.deliver(
    mailbox,
    top +
      rawMail(
        { From: ALLOWED, To: mailbox.user, Subject: 'Radiator', 'Message-ID': messageId, ...headers },
        body,
      ),
    into.receivedAt,
  );
  return messageId;
}

/** The incoming mails of a setting as the data manager's list shows them. */
async function listed(id = settingId) {
  const res = await dm.client.get(`/email-settings/${id}/mails?pageSize=100`);
  expect(res.status).toBe(200);
  return res.body.items as Array<{
    subject: string;
    fate: string;
    reason: string | null;
    chatId: string | null;
  }>;
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

/**
 * As an hour later for the hourly limits: the tests ask as one sender, whose 20 answers an hour the earlier tests
 * would otherwise use up (the limit itself is tested on its own).
 */
async function anHourLater() {
  await t.server.ctx.db.execute(sql`update email_inbound set slot_at = slot_at - interval '2 hours'
    where setting_id = ${settingId} and slot_at is not null`);
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
    // From the mailbox's address, under the company's name.
    expect(parsed.from?.value[0]).toEqual({ address: box.user, name: 'Müller Haustechnik GmbH' });
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
    // The conversation is in the company's chat list, from e-mail, named by its subject and sender.
    const chats = (await dm.client.get('/chats')).body.items;
    expect(chats).toEqual([
      expect.objectContaining({
        name: `Radiator · ${ALLOWED}`,
        source: 'email',
        visibility: 'public',
        messageCount: 2,
      }),
    ]);
    // The asker has no account: no link.
    expect(parsed.text).not.toContain('/chat?chat=');
    // A follow-up in the same thread is the same conversation; a new thread is a new one.
    const followUp = await deliver(
      { Subject: 'Re: Radiator', References: `<start@kunde.example> ${question}` },
      'And which way do I turn it?',
    );
    const other = await deliver({ Subject: 'Boiler pressure' }, 'How do I bleed the radiator in the cellar?');
    await smtp.waitFor(replyTo(followUp), 60_000);
    await smtp.waitFor(replyTo(other), 60_000);
    const after = (await dm.client.get('/chats')).body.items as Array<{ name: string; messageCount: number }>;
    expect(after.map((c) => [c.name, c.messageCount]).sort()).toEqual([
      [`Boiler pressure · ${ALLOWED}`, 2],
      [`Radiator · ${ALLOWED}`, 4],
    ]);
    expect((await listed()).slice(0, 3).map((m) => m.fate)).toEqual(['answered', 'answered', 'answered']);
  });

  it('reads a question written only in the subject, and says plainly when the documents hold no answer', async () => {
    const subjectOnly = await deliver({ Subject: 'How do I bleed the radiator?' }, '\n-- \nDana Schmidt');
    const reply = await smtp.waitFor(replyTo(subjectOnly), 60_000);
    expect(reply.text).toContain('quarter turn counterclockwise');
    expect((await stored(subjectOnly)).question).toBe('How do I bleed the radiator?');
    const unknown = await deliver({ Subject: 'Invoice' }, 'Wann kommt die Rechnung für den Kesseltausch?');
    // The first German question on these English documents: its reply took 7 s alone on an idle machine, and 46 to
    // 65 s within full runs on two cores (one over a minute failed the test there).
    const none = await smtp.waitFor(replyTo(unknown), 120_000);
    // A mail is no chat: not "in this chat's documents".
    expect(none.text).toContain('In den Dokumenten habe ich nichts gefunden');
    expect(none.text).not.toMatch(/Chat/);
    // Two mails in turn, waited for up to one and two minutes: the test's own time is theirs.
  }, 200_000);

  it('answers once and retries only the sending while the SMTP server refuses', async () => {
    smtp.failNext(2);
    const question = await deliver({ Subject: 'Bleeding' }, 'How do I bleed the radiator?');
    const reply = await smtp.waitFor(replyTo(question), 90_000);
    expect(reply.text).toContain('quarter turn counterclockwise');
    const row = await stored(question, 'answered');
    expect(row.answerMessageId).not.toBeNull();
    // One question and one answer in its conversation: the model was asked once, the mail sent three times.
    const { rows } = await t.server.ctx.db.execute<{ role: string }>(sql`select m.role from chat_messages m
      join email_conversations c on c.chat_id = m.chat_id where c.id = ${row.conversationId} order by m.role`);
    expect(rows.map((r) => r.role)).toEqual(['assistant', 'user']);
    expect(smtp.mails.filter(replyTo(question))).toHaveLength(1);
  }, 120_000);

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
    // Each is in the data manager's list, with why it was not answered.
    const items = await listed();
    expect(
      items
        .filter((m) => m.fate === 'ignored')
        .slice(0, 6)
        .map((m) => m.reason),
    ).toEqual(['auto-reply', 'ourselves', 'mailing-list', 'bounce', 'auto-reply', 'not-allowed']);
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

  it('lets the 21st mail of a sender in an hour wait for its turn instead of dropping it', async () => {
    const sender = 'vielfrager@kunde.example';
    await dm.client.put(
      `/email-settings/${settingId}`,
      settingOf(box, { password: '', allowedEmails: [ALLOWED, sender] }),
    );
    // Twenty answers to this sender within the hour.
    await t.server.ctx.db.execute(sql`insert into email_inbound
        (setting_id, company_id, uid, message_id, from_address, subject, question, "references", status, slot_at,
         answered_at)
      select ${settingId}, company_id, 0, '<earlier-' || i || '@kunde.example>', ${sender}, 'Radiator', 'q',
        jsonb_build_array('<earlier-' || i || '@kunde.example>'), 'answered', now() - interval '50 minutes',
        now() - interval '50 minutes'
      from email_settings, generate_series(1, 20) i where id = ${settingId}`);
    const question = await deliver({ From: sender }, 'How do I bleed the radiator, once more?');
    const waiting = await stored(question, 'waiting');
    expect(waiting.reason).toBe('rate-limited');
    expect(waiting.retryAt!.getTime()).toBeGreaterThan(Date.now() + 5 * 60_000);
    expect((await listed())[0]).toMatchObject({ fate: 'waiting', reason: 'rate-limited' });
    expect(smtp.mails.filter(replyTo(question))).toEqual([]);
    // Its time comes (the hour of the earlier answers is over): it is answered, once.
    await t.server.ctx.db.execute(sql`update email_inbound set slot_at = now() - interval '2 hours'
      where setting_id = ${settingId} and from_address = ${sender} and message_id like '<earlier-%'`);
    await t.server.ctx.db.execute(sql`update email_inbound set retry_at = now() where id = ${waiting.id}`);
    // The job that waits is sent after the mail is stored as waiting (on a loaded machine, seconds after): it is
    // brought forward once it is there.
    await expect
      .poll(
        async () =>
          (
            await t.server.ctx.db.execute(sql`update pgboss.job set start_after = now()
              where name = 'mail-assistant.answer' and data->>'inboundId' = ${waiting.id} and state = 'created'
              returning id`)
          ).rows.length,
        { timeout: 60_000, interval: 200 },
      )
      .toBe(1);
    await smtp.waitFor(replyTo(question), 60_000);
    expect(smtp.mails.filter(replyTo(question))).toHaveLength(1);
  });

  it('offers the conversation to an asker with an account, in their own thread', async () => {
    await dm.client.put(
      `/email-settings/${settingId}`,
      settingOf(box, { password: '', allowedEmails: [dm.email] }),
    );
    const question = await deliver(
      { From: dm.email, Subject: 'Venting' },
      'How do I bleed the radiator upstairs?',
    );
    const reply = await smtp.waitFor(replyTo(question), 60_000);
    const chatId = (await stored(question, 'answered')).conversationId;
    const chat = (await dm.client.get('/chats')).body.items.find((c: { name: string }) =>
      c.name.startsWith('Venting'),
    );
    expect(reply.text).toContain(`/chat?chat=${chat.id}`);
    expect(chatId).not.toBeNull();
    const messages = (await dm.client.get(`/chats/${chat.id}/messages`)).body.items as Array<{
      content: string;
    }>;
    expect(messages[0]!.content).toBe('How do I bleed the radiator upstairs?');
    await dm.client.put(`/email-settings/${settingId}`, settingOf(box, { password: '' }));
  });

  it('tells the asker by the platform’s mail when the reply could not be sent after every retry', async () => {
    smtp.failNext(1000);
    const question = await deliver({ Subject: 'Refused' }, 'How do I bleed the radiator in the garage?');
    // The first attempt was refused; the next one is made the last (instead of waiting an hour of backoff).
    const deadline = Date.now() + 60_000;
    let row = await stored(question, 'sending');
    while (!row.error && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      row = await stored(question, 'sending');
    }
    expect(row.error).toContain('temporary failure');
    // Once pg-boss has the job waiting for its retry.
    for (let made = 0; made === 0 && Date.now() < deadline; ) {
      const { rows } = await t.server.ctx.db.execute(sql`update pgboss.job
        set retry_limit = retry_count + 1, start_after = now()
        where name = 'mail-assistant.send' and data->>'inboundId' = ${row.id} and state = 'retry' returning id`);
      made = rows.length;
      if (made === 0) await new Promise((r) => setTimeout(r, 100));
    }
    const failed = await stored(question, 'failed');
    smtp.failNext(0);
    expect(failed.reason).toBe('send-failed');
    const notice = await t.smtp!.waitFor((m) => m.to.includes(ALLOWED) && m.raw.includes(box.user), 60_000);
    expect(notice.subject).toBe(`Your question to ${box.user} could not be answered`);
    expect(notice.text).toContain('“Refused”');
    expect(notice.html).toContain(`mailto:${box.user}?subject=Re%3A%20Refused`);
    expect((await listed())[0]).toMatchObject({ fate: 'failed', reason: 'send-failed' });
  });

  it('never reads mail that was in a mailbox before it was saved, unless told to read from an earlier day', async () => {
    const month = await deliver({}, 'How do I bleed the radiator (last month)?', '', {
      mailbox: oldBox,
      receivedAt: new Date(Date.now() - 30 * DAY),
    });
    const minute = await deliver({}, 'How do I bleed the radiator (a minute ago)?', '', {
      mailbox: oldBox,
      receivedAt: new Date(Date.now() - 60_000),
    });
    // The setting moves to a mailbox with mail in it: it starts from the time of the save.
    const moved = await dm.client.put(`/email-settings/${settingId}`, settingOf(oldBox));
    expect(moved.status).toBe(200);
    const fresh = await deliver({}, 'How do I bleed the radiator (now)?', '', { mailbox: oldBox });
    await smtp.waitFor(replyTo(fresh), 60_000);
    for (const old of [month, minute]) {
      expect(smtp.mails.filter(replyTo(old))).toEqual([]);
      const { rows } = await t.server.ctx.db.execute(
        sql`select 1 from email_inbound where message_id = ${old}`,
      );
      expect(rows).toEqual([]);
    }
    // A cut-off chosen 40 days back reads the month-old mail, and what was answered is not answered again.
    const earlier = await dm.client.put(
      `/email-settings/${settingId}`,
      settingOf(oldBox, { password: '', answerFrom: new Date(Date.now() - 40 * DAY).toISOString() }),
    );
    expect(earlier.status).toBe(200);
    await smtp.waitFor(replyTo(month), 60_000);
    await smtp.waitFor(replyTo(minute), 60_000);
    expect(smtp.mails.filter(replyTo(fresh))).toHaveLength(1);
    const future = await dm.client.put(
      `/email-settings/${settingId}`,
      settingOf(oldBox, { password: '', answerFrom: new Date(Date.now() + 2 * DAY).toISOString() }),
    );
    expect(future.status).toBe(422);
    expect(future.body.error.details.fields).toEqual([
      expect.objectContaining({ field: 'answerFrom', message: 'Choose a day that is not in the future.' }),
    ]);
    expect((await dm.client.put(`/email-settings/${settingId}`, settingOf(box))).status).toBe(200);
  });

  it('reads the mailbox again within a minute of its IMAP server coming back after a long outage', async () => {
    await dovecot.down();
    const failing = async () =>
      (
        await t.server.ctx.db.execute<{ check_error: string | null }>(
          sql`select check_error from email_settings where id = ${settingId}`,
        )
      ).rows[0]?.check_error;
    while ((await failing()) !== 'unreachable') await new Promise((r) => setTimeout(r, 200));
    // As after hours of failed attempts: one more fails, and the wait before the next stays short.
    await t.server.ctx.db.execute(sql`update email_settings set failures = 40, retry_at = now()
      where id = ${settingId}`);
    const failures = async () =>
      (
        await t.server.ctx.db.execute<{ failures: number }>(
          sql`select failures from email_settings where id = ${settingId}`,
        )
      ).rows[0]!.failures;
    while ((await failures()) <= 40) await new Promise((r) => setTimeout(r, 200));
    await dovecot.up();
    const question = await deliver({ Subject: 'Back' }, 'How do I bleed the radiator after the outage?');
    await smtp.waitFor(replyTo(question), 60_000);
    expect(await failing()).toBeNull();
  }, 120_000);

  it('loses and duplicates nothing when the worker restarts in the middle of a mailbox', async () => {
    await anHourLater();
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
    await anHourLater();
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
