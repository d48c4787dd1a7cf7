import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailboxUser, rawMail, TestDovecot } from '../../../test/support/dovecot.ts';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { type ReceivedMail, SmtpSink } from '../../../test/support/smtp-sink.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { openDatabase } from '../../db/database.ts';
import { MailboxWatchers } from './mailbox-watchers.ts';

/** Twenty companies, each with its own mailbox on one real Dovecot, answered by one server's worker (and a second). */
const COMPANIES = 20;
const ASKER = 'meister@kunde.example';
const boxes: MailboxUser[] = Array.from({ length: COMPANIES }, (_, i) => ({
  user: `assistent${i}@firma${i}.example`,
  pass: `imap-pass-${i}`,
}));
/** Each company's own fact: an answer from another company's documents would show. */
const keyOf = (i: number) => String(4100 + i);

let t: TestServer;
let dovecot: TestDovecot;
let smtp: SmtpSink;
let n = 0;
const oldMails: string[] = [];

async function deliver(i: number, body: string, receivedAt?: Date): Promise<string> {
  const messageId = `<q${++n}-${Date.now()}@kunde.example>`;
  const headers = { From: ASKER, To: boxes[i]!.user, Subject: 'Ventil', 'Message-ID': messageId };
  await dovecot.deliver(boxes[i]!, rawMail(headers, body), receivedAt);
  return messageId;
}

const replyTo = (messageId: string) => (m: ReceivedMail) => m.raw.includes(`In-Reply-To: ${messageId}`);

/** Asks every company's mailbox at once and waits until each question has its reply; returns them. */
async function askAll(): Promise<Array<{ i: number; id: string; reply: ReceivedMail }>> {
  const asked = await Promise.all(
    boxes.map(async (_, i) => ({ i, id: await deliver(i, 'Which key opens the radiator valve?') })),
  );
  return Promise.all(asked.map(async (q) => ({ ...q, reply: await smtp.waitFor(replyTo(q.id), 120_000) })));
}

/** Until every mailbox is held by a worker that has read it. */
async function allHeld(): Promise<Map<string, number>> {
  for (;;) {
    const { rows } = await t.server.ctx.db.execute<{ holder: string; n: number | string }>(sql`select
        lease_holder as holder, count(*) as n from email_settings
      where lease_until > now() and checked_at is not null and check_error is null group by lease_holder`);
    const held = new Map(rows.map((r) => [r.holder, Number(r.n)]));
    if ([...held.values()].reduce((a, b) => a + b, 0) === COMPANIES) return held;
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  dovecot = await TestDovecot.start(boxes);
  smtp = new SmtpSink({ auth: boxes.map((b) => ({ user: b.user, pass: b.pass })) });
  await smtp.start();
  // IDLE does the reading: the safety-net poll is left at its default (a minute).
  t = await startTestServer({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  for (let first = 0; first < COMPANIES; first += 5) {
    await Promise.all(
      boxes.slice(first, first + 5).map(async (box, k) => {
        const i = first + k;
        const dm = await companyWithFile(
          t,
          `The radiator valve is opened with key number ${keyOf(i)}. Turn it a quarter turn.`,
          'Heizung',
        );
        // Mail that was there before the setting: never read.
        oldMails.push(
          await deliver(i, 'Which key opens the radiator valve?', new Date(Date.now() - 7 * 864e5)),
        );
        const created = await dm.client.post('/email-settings', {
          fromEmail: box.user,
          allowedEmails: [ASKER],
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
      }),
    );
  }
}, 300_000);
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
  await dovecot?.stop();
});

describe('the e-mail assistant with twenty companies', () => {
  it('watches every mailbox at once and answers each question once, from its own company', async () => {
    const held = await allHeld();
    expect([...held.values()]).toEqual([COMPANIES]);
    for (const { i, id, reply } of await askAll()) {
      expect(reply.to).toEqual([ASKER]);
      expect(reply.text).toContain(keyOf(i));
      expect(smtp.mails.filter(replyTo(id))).toHaveLength(1);
    }
    for (const old of oldMails) expect(smtp.mails.filter(replyTo(old))).toEqual([]);
    const { rows } = await t.server.ctx.db.execute(
      sql`select 1 from email_inbound where message_id = any(${sql.param(oldMails)}::text[])`,
    );
    expect(rows).toEqual([]);
  });

  it('shares the mailboxes with a second worker, and takes over those of a worker cut off', async () => {
    // A second worker process, as far as the mailboxes go: its own watchers on its own connections.
    const database = openDatabase(t.server.databaseUrl, 4);
    const second = new MailboxWatchers({ ...t.server.ctx, db: database.db, pool: database.pool });
    const first = t.server.mailWatchers!;
    second.start();
    try {
      let held = await allHeld();
      while (held.get(second.id) !== COMPANIES / 2) held = await allHeld();
      expect(held).toEqual(
        new Map([
          [first.id, COMPANIES / 2],
          [second.id, COMPANIES / 2],
        ]),
      );
      // Never one mailbox in both: the sessions of the two add up to the mailboxes.
      expect(first.held().idle + second.held().idle).toBe(COMPANIES);
      for (const { id } of await askAll()) expect(smtp.mails.filter(replyTo(id))).toHaveLength(1);

      // The second loses its database (as a worker that died, or hangs): its leases run out and the first takes its
      // mailboxes, reading what arrived meanwhile once.
      await database.close();
      for (const { id } of await askAll()) expect(smtp.mails.filter(replyTo(id))).toHaveLength(1);
      expect(await allHeld()).toEqual(new Map([[first.id, COMPANIES]]));
    } finally {
      await second.stop();
      await database.close().catch(() => {});
    }
  }, 180_000);
});
