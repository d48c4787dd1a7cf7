/**
 * The e-mail assistant with many companies: `npm run bench:mail [-- --companies=20] [--rounds=3]
 * [--database-url=postgres://...]`: on the embedded PGlite, and with --database-url also on a new database of that
 * PostgreSQL server, side by side at the end.
 *
 * A real Dovecot (test/support/dovecot.ts) holds one mailbox per company; each company (registered through the API,
 * one division with one ready .docx naming its own valve key) saves an e-mail setting for its mailbox, answered by
 * the built-in answerer and sent to one local SMTP sink. Per round, one question is delivered into every mailbox at
 * once (IMAP APPEND); the time from each delivery to its reply at the SMTP sink is measured. The baseline, in the
 * same run and on the same server: one mailbox asked alone (the same path with nothing else to do). It prints the
 * distribution (p50, p95, max, and how many within 10 s), replies that name another company's key, questions
 * answered twice, and old mail (delivered a week before the setting was saved) answered; and the database statements
 * of the all-at-once rounds per answered mail, the most frequent with their time (PGlite serves one session at a
 * time: what the answers wait for). Figures only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { makeDocx, waitForFile } from '../test/support/documents.ts';
import { type MailboxUser, rawMail, TestDovecot } from '../test/support/dovecot.ts';
import { SmtpSink } from '../test/support/smtp-sink.ts';
import { signedInDataManager, startTestServer } from '../test/support/test-server.ts';
import { type BenchEngine, benchEngines } from './support/bench-engines.ts';
import {
  BENCH_SERVER_ENV,
  fmt,
  intFlag,
  machineLine,
  percentile,
  printTable,
  revisionLine,
} from './support/bench-kit.ts';

const COMPANIES = intFlag('companies', 20);
const ROUNDS = intFlag('rounds', 3);
const ASKER = 'meister@kunde.example';
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const keyOf = (i: number) => String(4100 + i);

/** A statement as recorded: its text (whitespace folded) and how long it took, waiting for the database included. */
interface Statement {
  text: string;
  ms: number;
}

/**
 * Records every statement any client of this process sends (the server's pool, its transactions and pg-boss), while
 * `on`: PGlite serves one session at a time, so their number and their time are what the answers wait for.
 */
const statements = {
  on: false,
  records: [] as Statement[],
  install() {
    const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (!statements.on) return original.apply(this, args);
      const first = args[0] as string | { text?: string };
      const text = (typeof first === 'string' ? first : (first?.text ?? '')).replace(/\s+/g, ' ').trim();
      const start = performance.now();
      const record = () => statements.records.push({ text, ms: performance.now() - start });
      // The pool's own query passes a callback; drizzle's transactions and pg-boss await the promise.
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function')
        args[last] = (...result: unknown[]) => {
          record();
          return callback(...result);
        };
      const result = original.apply(this, args);
      if (result instanceof Promise) result.then(record, record);
      return result;
    } as typeof pg.Client.prototype.query;
  },
};
statements.install();

interface Outcome {
  engine: string;
  alone: number[];
  together: number[];
  wrongCompany: number;
  twice: number;
  oldAnswered: number;
  /** The statements of the all-at-once rounds, and how many questions they answered. */
  statements: Statement[];
  answeredTogether: number;
}

async function run(engine: BenchEngine): Promise<Outcome> {
  const boxes: MailboxUser[] = Array.from({ length: COMPANIES }, (_, i) => ({
    user: `assistent${i}@firma${i}.example`,
    pass: `imap-pass-${i}`,
  }));
  const dir = mkdtempSync(join(tmpdir(), 'ww-bench-mail-'));
  const dovecot = await TestDovecot.start(boxes);
  const smtp = new SmtpSink({ auth: boxes.map((b) => ({ user: b.user, pass: b.pass })) });
  await smtp.start();
  const database = await engine.serverDatabase(dir);
  const t = await startTestServer({
    dataDir: dir,
    env: { ...BENCH_SERVER_ENV, ...database.serverEnv, OUTBOUND_ALLOW_PRIVATE: 'true' },
  });
  let n = 0;
  const deliver = async (i: number, receivedAt?: Date) => {
    const id = `<b${++n}-${Date.now()}@kunde.example>`;
    const headers = { From: ASKER, To: boxes[i]!.user, Subject: 'Ventil', 'Message-ID': id };
    await dovecot.deliver(boxes[i]!, rawMail(headers, 'Which key opens the radiator valve?'), receivedAt);
    return { i, id, at: performance.now() };
  };
  const replyTo = (id: string) => (m: { raw: string }) => m.raw.includes(`In-Reply-To: ${id}`);
  /** Seconds from delivery to the reply at the sink (polled every 50 ms, as the test's waitFor does). */
  const answered = async (q: { i: number; id: string; at: number }) => {
    const reply = await smtp.waitFor(replyTo(q.id), 120_000);
    return { ...q, seconds: (performance.now() - q.at) / 1000, reply };
  };
  try {
    const old: string[] = [];
    for (let i = 0; i < COMPANIES; i++) {
      const dm = await signedInDataManager(t, { language: 'en' });
      const divisionId = (await dm.client.post('/divisions', { name: 'Heizung' })).body.id as string;
      const content = await makeDocx([
        { heading: 'Heizung' },
        { text: `The radiator valve is opened with key number ${keyOf(i)}. Turn it a quarter turn.` },
      ]);
      const up = await dm.client.upload(`/divisions/${divisionId}/files`, [
        { name: 'Heizung.docx', content },
      ]);
      await waitForFile(dm.client, up.body.results[0].file.id);
      old.push((await deliver(i, new Date(Date.now() - WEEK_MS))).id);
      const created = await dm.client.post('/email-settings', {
        fromEmail: boxes[i]!.user,
        allowedEmails: [ASKER],
        divisionId,
        isPrivate: false,
        smtpHost: '127.0.0.1',
        smtpPort: smtp.port,
        imapHost: '127.0.0.1',
        imapPort: dovecot.port,
        smtpEmail: boxes[i]!.user,
        userName: boxes[i]!.user,
        password: boxes[i]!.pass,
        security: 'none',
      });
      if (created.status !== 201) throw new Error(`setting not saved: ${JSON.stringify(created.body)}`);
    }
    // Every mailbox read once (held in IDLE) before the clock starts.
    for (;;) {
      const { rows } = await t.server.ctx.db.execute<{ n: number | string }>(
        sql`select count(*) as n from email_settings where checked_at is not null and lease_until > now()`,
      );
      if (Number(rows[0]?.n) === COMPANIES) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const outcome: Outcome = {
      engine: engine.name,
      alone: [],
      together: [],
      wrongCompany: 0,
      twice: 0,
      oldAnswered: 0,
      statements: [],
      answeredTogether: 0,
    };
    const asked: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const single = await answered(await deliver(round % COMPANIES));
      outcome.alone.push(single.seconds);
      asked.push(single.id);
      statements.records = [];
      statements.on = true;
      const all = await Promise.all(boxes.map((_, i) => deliver(i)));
      const replies = await Promise.all(all.map(answered));
      statements.on = false;
      outcome.statements.push(...statements.records);
      outcome.answeredTogether += replies.length;
      for (const r of replies) {
        outcome.together.push(r.seconds);
        asked.push(r.id);
        if (!r.reply.text.includes(keyOf(r.i))) outcome.wrongCompany++;
      }
    }
    // Late duplicates would arrive after the first reply: a moment for them.
    await new Promise((r) => setTimeout(r, 3000));
    outcome.twice = asked.filter((id) => smtp.mails.filter(replyTo(id)).length > 1).length;
    outcome.oldAnswered = old.filter((id) => smtp.mails.some(replyTo(id))).length;
    return outcome;
  } finally {
    await t.close();
    await database.stop();
    await smtp.stop();
    await dovecot.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(machineLine());
console.log(revisionLine());
console.log(`${COMPANIES} companies' mailboxes on one Dovecot, ${ROUNDS} rounds, built-in answerer\n`);
const results: Outcome[] = [];
for (const engine of benchEngines()) results.push(await run(engine));
const line = (engine: string, what: string, s: number[]) => [
  engine,
  what,
  String(s.length),
  fmt(percentile(s, 50), 2),
  fmt(percentile(s, 95), 2),
  fmt(Math.max(...s), 2),
  `${s.filter((x) => x <= 10).length}/${s.length}`,
];
printTable(
  ['engine', 'questions', 'n', 'p50 s', 'p95 s', 'max s', 'within 10 s'],
  results.flatMap((r) => [
    line(r.engine, 'one mailbox alone (baseline)', r.alone),
    line(r.engine, `all ${COMPANIES} at once`, r.together),
  ]),
  [0, 1],
);
for (const r of results)
  console.log(
    `${r.engine}: another company's answer ${r.wrongCompany}, answered twice ${r.twice}, old mail answered ${r.oldAnswered}`,
  );
/** The statement's first words (its table or call), literals and parameters left as they are. */
const label = (text: string) => text.slice(0, 90);
for (const r of results) {
  const total = r.statements.reduce((sum, s) => sum + s.ms, 0);
  console.log(
    `\n${r.engine}, all at once: ${r.statements.length} statements (${fmt(r.statements.length / r.answeredTogether, 0)} ` +
      `per answered mail, every client of the server process), ${fmt(total / 1000, 1)} s summed`,
  );
  const byText = new Map<string, Statement[]>();
  for (const s of r.statements) byText.set(label(s.text), [...(byText.get(label(s.text)) ?? []), s]);
  printTable(
    ['statement', 'count', 'per mail', 'p50 ms', 'sum s'],
    [...byText.entries()]
      .sort((a, b) => b[1].length - a[1].length)
      .slice(0, 15)
      .map(([text, list]) => [
        text,
        String(list.length),
        fmt(list.length / r.answeredTogether, 1),
        fmt(
          percentile(
            list.map((s) => s.ms),
            50,
          ),
          1,
        ),
        fmt(list.reduce((sum, s) => sum + s.ms, 0) / 1000, 1),
      ]),
  );
}
process.exit(0);
