import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solvedAltcha } from '../../../test/support/altcha.ts';
import type { ApiResponse } from '../../../test/support/api-client.ts';
import { insertPassage } from '../../../test/support/chat-fixtures.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm.ts';
import { stream } from '../../../test/support/sse.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { files, subscriptions } from '../../db/schema/index.ts';

/**
 * Every limit of a plan holds against parallel requests: each of them is taken inside the creating transaction with
 * the company row locked (`takeLimitSlot`), so that twelve requests at once reach exactly the limit and no further.
 * PGlite runs one transaction at a time; on PostgreSQL (TEST_DATABASE_URL) the requests really race.
 */
let t: TestServer;
let llm: FakeLlm;
const db = () => t.server.ctx.db;
const DAY = 86_400_000;
const PARALLEL = 12;

/** The trial of the security review: 3 divisions, 2 employees, 20 kB, 6 questions a month, 1 mailbox. */
const TRIAL = {
  storageBytes: 20 * 1024,
  divisions: 3,
  employees: 2,
  smtpSettings: 1,
  emailSettings: 1,
  questionsPerMonth: 6,
};

beforeAll(async () => {
  llm = await startFakeLlm();
  t = await startTestServer({ smtp: false, env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
  const admin = await signedInAs(t, 'Administrator');
  const res = await admin.client.put('/admin/plans/trial', { priceCents: null, limits: TRIAL });
  expect(res.status).toBe(200);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await llm?.close();
});

/** A data manager of a new company on the trial. */
async function onTrial() {
  const dm = await signedInAs(t, 'DataManager');
  await db()
    .insert(subscriptions)
    .values({
      companyId: dm.companyId!,
      plan: 'trial',
      status: 'trial',
      startsAt: new Date(Date.now() - DAY),
      endsAt: new Date(Date.now() + 14 * DAY),
    });
  return dm;
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const { rows } = await db().execute<{ n: string | number }>(query);
  return Number(rows[0]!.n);
}

const parallel = <T>(make: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: PARALLEL }, (_, i) => make(i)));

const statuses = (answers: ApiResponse[]) => answers.map((a) => a.status).sort();

describe('limits under parallel requests', () => {
  it('adds divisions up to the limit and refuses the rest', async () => {
    const dm = await onTrial();
    const answers = await parallel((i) => dm.client.post('/divisions', { name: `Bereich ${i}` }));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(TRIAL.divisions);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.body.error.code).toBe('PLAN_LIMIT_REACHED');
    }
    expect(await count(sql`select count(*) as n from divisions where company_id = ${dm.companyId}`)).toBe(
      TRIAL.divisions,
    );
  });

  it('adds employees up to the limit and refuses the rest', async () => {
    const dm = await onTrial();
    const answers = await parallel((i) =>
      dm.client.post('/employees', {
        email: `kai${i}-${Date.now()}@firma.example`,
        firstName: 'Kai',
        lastName: 'Berg',
        language: 'de',
        divisionIds: [],
      }),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(TRIAL.employees);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.body.error.code).toBe('PLAN_LIMIT_REACHED');
    }
    expect(
      await count(
        sql`select count(*) as n from users where company_id = ${dm.companyId} and kind = 'Employee'`,
      ),
    ).toBe(TRIAL.employees);
  });

  it('adds employees of a CSV import up to the limit, also two imports at once', async () => {
    const dm = await onTrial();
    const csv = (batch: number) =>
      [
        'email,firstName,lastName',
        ...Array.from({ length: 3 }, (_, i) => `csv${batch}-${i}-${Date.now()}@firma.example,Kai,Berg`),
      ].join('\n');
    const answers = await Promise.all(
      [1, 2, 3, 4].map((batch) => dm.client.post('/employees/import', { csv: csv(batch) })),
    );
    const created = answers.reduce((sum, a) => sum + (a.body.created as number), 0);
    expect(created).toBe(TRIAL.employees);
    // Each refused row names the limit, its placeholders filled.
    const [refused] = answers.flatMap((a) => a.body.rejected[0]?.errors ?? []);
    expect(refused).toMatchObject({ code: 'errors.PLAN_LIMIT_REACHED' });
    expect(refused.message).toContain(String(TRIAL.employees));
    expect(refused.message).not.toContain('{{');
    expect(
      await count(
        sql`select count(*) as n from users where company_id = ${dm.companyId} and kind = 'Employee'`,
      ),
    ).toBe(TRIAL.employees);
  });

  it('adds e-mail settings up to the limit and refuses the rest', async () => {
    const dm = await onTrial();
    const division = await dm.client.post('/divisions', { name: 'Postfach' });
    const answers = await parallel((i) =>
      dm.client.post('/email-settings', {
        fromEmail: `assistent${i}@firma.example`,
        allowedEmails: ['chefin@kunde.example'],
        divisionId: division.body.id,
        isPrivate: false,
        smtpHost: '127.0.0.1',
        smtpPort: 1,
        imapHost: '127.0.0.1',
        imapPort: 1,
        smtpEmail: `assistent${i}@firma.example`,
        userName: `assistent${i}`,
        password: 'imap-pass-1',
        security: 'none',
      }),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(TRIAL.emailSettings);
    expect(
      await count(sql`select count(*) as n from email_settings where company_id = ${dm.companyId}`),
    ).toBe(TRIAL.emailSettings);
  });

  it('stores uploads up to the storage limit, never beyond it', async () => {
    const dm = await onTrial();
    const division = await dm.client.post('/divisions', { name: 'Lager' });
    // 4 kB each (distinct contents): five fit into 20 kB, the sixth would not.
    const file = (i: number) => ({ name: `liste-${i}.txt`, content: `${i} `.padEnd(4096, 'x') });
    const answers = await parallel((i) =>
      dm.client.upload(`/divisions/${division.body.id}/files`, [file(i)]),
    );
    expect(statuses(answers).filter((s) => s === 201 || s === 200)).toHaveLength(5);
    for (const refused of answers.filter((a) => a.status >= 400)) {
      expect(refused.body.error.code).toBe('QUOTA_EXCEEDED');
    }
    const used = await count(
      sql`select coalesce(sum(size_bytes), 0) as n from files where company_id = ${dm.companyId}`,
    );
    expect(used).toBe(5 * 4096);
    expect(used).toBeLessThanOrEqual(TRIAL.storageBytes);
  });

  it("copies the company's default document into new divisions only while the storage holds it", async () => {
    const dm = await onTrial();
    const form = new FormData();
    form.append('file', new Blob([`Hausordnung `.padEnd(12 * 1024, 'x')]), 'Hausordnung.txt');
    const saved = await dm.client.request('PUT', '/company/default-document', undefined, { form });
    expect(saved.status).toBe(200);
    const answers = await Promise.all(
      [1, 2, 3].map((i) => dm.client.post('/divisions', { name: `Bereich ${i}` })),
    );
    expect(statuses(answers)).toEqual([201, 201, 201]);
    // Two copies of 12 kB would be 24 kB of 20: one is made, the other divisions start empty.
    expect(await count(sql`select count(*) as n from files where company_id = ${dm.companyId}`)).toBe(1);
  });

  it('answers questions up to the monthly cap and refuses the rest', async () => {
    const dm = await onTrial();
    const division = await dm.client.post('/divisions', { name: 'Heizung' });
    await insertPassage(t, {
      companyId: dm.companyId!,
      divisionId: division.body.id,
      text: 'Den Heizkörper entlüften Sie mit dem Vierkantschlüssel am oberen Ventil.',
    });
    // One chat each, so that no thread orders the questions: only the cap does.
    const chats = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        dm.client.post('/chats', { name: `Fragen ${i}`, divisionIds: [division.body.id] }),
      ),
    );
    const answers = await parallel((i) =>
      dm.client.post(`/chats/${chats[i]!.body.id}/messages`, { content: 'Wie entlüfte ich den Heizkörper?' }),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(TRIAL.questionsPerMonth);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.body.error.code).toBe('PLAN_LIMIT_REACHED');
    }
    expect(
      await count(
        sql`select count(*) as n from chat_messages where company_id = ${dm.companyId} and role = 'user'`,
      ),
    ).toBe(TRIAL.questionsPerMonth);
  });

  it('spends the company model only on the questions within the cap', async () => {
    // English questions over a German file: each question the model answers is first translated by it. A question
    // refused at the cap must not have started that call beside its refused insert.
    const dm = await onTrial();
    const division = await dm.client.post('/divisions', { name: 'Technik' });
    const { file } = await insertPassage(t, {
      companyId: dm.companyId!,
      divisionId: division.body.id,
      text: 'Den Heizkörper entlüften Sie mit dem Vierkantschlüssel am oberen Ventil.',
    });
    await db().update(files).set({ language: 'deu' }).where(sql`id = ${file.id}`);
    const saved = await dm.client.request('PUT', '/ai-providers/openai', {
      baseUrl: llm.url,
      apiKey: 'sk-test-0123456789abcdef',
      model: 'gpt-4o-mini',
    });
    expect(saved.status).toBe(200);
    llm.setScript({ text: 'Mit dem Vierkantschlüssel [1].' });
    const chats = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        dm.client.post('/chats', { name: `KI ${i}`, provider: 'openai', divisionIds: [division.body.id] }),
      ),
    );
    llm.reset();
    const answers = await parallel((i) =>
      stream(dm.client, `/chats/${chats[i]!.body.id}/messages`, {
        content: 'How do I bleed the radiator with the square key?',
      }),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(TRIAL.questionsPerMonth);
    // A refused question's work would go on after its answer: give it the time it would take.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const translations = llm.requests.filter(
      (r) => r.route === 'chat' && JSON.stringify(r.body.messages).includes('Translate the user'),
    );
    expect(translations).toHaveLength(TRIAL.questionsPerMonth);
  });

  it('counts public chat visitors against the same cap', async () => {
    const dm = await onTrial();
    const division = await dm.client.post('/divisions', { name: 'Kundendienst' });
    await insertPassage(t, {
      companyId: dm.companyId!,
      divisionId: division.body.id,
      text: 'Den Heizkörper entlüften Sie mit dem Vierkantschlüssel am oberen Ventil.',
    });
    const chat = await dm.client.post('/chats', {
      name: 'Kundenfragen',
      visibility: 'public',
      divisionIds: [division.body.id],
    });
    const token = (await dm.client.post(`/chats/${chat.body.id}/share`)).body.shareToken as string;
    // Three visitors asking four questions each, all at once.
    const visitors = await Promise.all(
      [1, 2, 3].map(async () => {
        const client = t.client();
        const joined = await client.post(`/public/chats/${token}/visitor`, {
          botCheck: await solvedAltcha(client),
        });
        expect(joined.status).toBe(200);
        return client;
      }),
    );
    const answers = await parallel((i) =>
      stream(visitors[i % 3]!, `/public/chats/${token}/messages`, {
        content: 'Wie entlüfte ich den Heizkörper?',
      }),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(TRIAL.questionsPerMonth);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.body.error.code).toBe('PLAN_LIMIT_REACHED');
    }
    expect(
      await count(
        sql`select count(*) as n from chat_messages where company_id = ${dm.companyId} and role = 'user'`,
      ),
    ).toBe(TRIAL.questionsPerMonth);
  });
});
