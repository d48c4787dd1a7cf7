import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conversationOf,
  insertDivision,
  insertExchange,
  type Thread,
} from '../../../test/support/chat-fixtures.ts';
import { createUser, signedInAs, signedInWithRules } from '../../../test/support/factories.ts';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { authSessions, feedback, files } from '../../db/schema/index.ts';

/**
 * The platform's figures over seeded days of March 2025 (long before the test runs, so that the sign-ins of the
 * test's own users fall outside every period asked for): Monday 3 March to Sunday 16 March are two whole weeks.
 */
let t: TestServer;
const at = (iso: string) => new Date(`2025-03-${iso}Z`);
/** Filled in by beforeAll. */
const ids = { companyA: '', companyB: '', a1: '', a2: '', b1: '' };

async function backdate(table: 'companies' | 'users', id: string, when: Date) {
  await t.server.ctx.db.execute(
    sql`update ${sql.identifier(table)} set created_at = ${when.toISOString()}::timestamptz where id = ${id}`,
  );
}

async function signIn(userId: string, when: Date) {
  await t.server.ctx.db
    .insert(authSessions)
    .values({ userId, area: 'user', createdAt: when, lastSeenAt: when });
}

async function file(companyId: string, divisionId: string, size: number, created: Date, failedAt?: Date) {
  await t.server.ctx.db.insert(files).values({
    companyId,
    divisionId,
    name: `Datei-${size}.pdf`,
    sizeBytes: size,
    mimeType: 'application/pdf',
    kind: 'pdf',
    sha256: `sha-${size}-${Math.random()}`,
    storageKey: `test/${size}-${Math.random()}`,
    status: failedAt ? 'failed' : 'ready',
    createdAt: created,
    updatedAt: failedAt ?? created,
  });
}

async function judge(thread: Thread, answerId: string, liked: boolean, when: Date) {
  await t.server.ctx.db.insert(feedback).values({
    companyId: thread.companyId,
    messageId: answerId,
    chatId: thread.chatId,
    chatName: 'Chat',
    origin: 'employee',
    givenBy: 'Test',
    question: 'Frage?',
    answer: 'Antwort.',
    liked,
    createdAt: when,
  });
}

beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  // Company A from 4 March (data manager a1, employee a2 from 11 March), company B from February (b1), company C
  // after the period.
  const a1 = await createUser(t, 'DataManager');
  const a2 = await createUser(t, 'Employee', { companyId: a1.companyId });
  const b1 = await createUser(t, 'DataManager');
  const c1 = await createUser(t, 'DataManager');
  Object.assign(ids, {
    companyA: a1.companyId,
    companyB: b1.companyId,
    a1: a1.user.id,
    a2: a2.user.id,
    b1: b1.user.id,
  });
  await backdate('companies', a1.companyId!, at('04T09:00:00'));
  await backdate('users', a1.user.id, at('04T09:00:00'));
  await backdate('users', a2.user.id, at('11T09:00:00'));
  await backdate('companies', b1.companyId!, new Date('2025-02-20T09:00:00Z'));
  await backdate('users', b1.user.id, new Date('2025-02-20T09:00:00Z'));
  await backdate('companies', c1.companyId!, at('20T09:00:00'));
  await backdate('users', c1.user.id, at('20T09:00:00'));
  // An operator's sign-in is not a user's activity.
  const operator = await createUser(t, 'Staff');
  await backdate('users', operator.user.id, at('04T09:00:00'));
  await signIn(operator.user.id, at('04T10:00:00'));

  // Sign-ins: a1 twice on the 4th and on the 5th, b1 on the 10th, a2 on the 12th (late in the evening, UTC).
  await signIn(a1.user.id, at('04T08:00:00'));
  await signIn(a1.user.id, at('04T18:00:00'));
  await signIn(a1.user.id, at('05T07:00:00'));
  await signIn(b1.user.id, at('10T12:00:00'));
  await signIn(a2.user.id, at('12T23:59:00'));

  // Questions: a1 two on the 5th (one unanswered) and one on the 12th; b1 one on the 12th; one after the period.
  const divisionA = await insertDivision(t, a1.companyId!, 'Heizung');
  const divisionB = await insertDivision(t, b1.companyId!, 'Lüftung');
  const threadA = await conversationOf(t, { id: a1.user.id, companyId: a1.companyId });
  const threadB = await conversationOf(t, { id: b1.user.id, companyId: b1.companyId });
  const q1 = await insertExchange(t, threadA, { question: 'Filter?', at: at('05T10:00:00') });
  await insertExchange(t, threadA, { question: 'Pumpe?', noAnswer: true, at: at('05T11:00:00') });
  const q3 = await insertExchange(t, threadA, { question: 'Ventil?', at: at('12T10:00:00') });
  const q4 = await insertExchange(t, threadB, { question: 'Lüfter?', at: at('12T11:00:00') });
  await insertExchange(t, threadB, { question: 'Später?', at: at('17T11:00:00') });
  // An answer still being written is no answer yet.
  await insertExchange(t, threadB, { question: 'Läuft?', status: 'streaming', at: at('13T11:00:00') });
  await judge(threadA, q1.answerId, true, at('05T12:00:00'));
  await judge(threadA, q3.answerId, false, at('12T12:00:00'));
  await judge(threadB, q4.answerId, true, at('12T12:00:00'));

  // Files: one before the period (100 B), one in week 1 (200 B), one failed in week 2 (300 B), one after (400 B).
  await file(a1.companyId!, divisionA.id, 100, new Date('2025-02-25T09:00:00Z'));
  await file(a1.companyId!, divisionA.id, 200, at('04T09:00:00'));
  await file(b1.companyId!, divisionB.id, 300, at('11T09:00:00'), at('12T09:30:00'));
  await file(a1.companyId!, divisionA.id, 400, at('20T09:00:00'));
});
afterAll(() => t?.close());

const period = '?from=2025-03-03&to=2025-03-16';
const dayOf = (body: { daily: Array<{ date: string }> }, date: string) =>
  body.daily.find((d) => d.date === `2025-03-${date}`);

describe('GET /analysis/dashboard', () => {
  it('counts per day and per week exactly, with every day and week of the period listed', async () => {
    const admin = await signedInAdmin(t);
    const res = await admin.get(`/analysis/dashboard${period}`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.period).toEqual({ from: '2025-03-03', to: '2025-03-16' });
    expect(body.daily.map((d: { date: string }) => d.date)).toEqual(
      Array.from({ length: 14 }, (_, i) => `2025-03-${String(3 + i).padStart(2, '0')}`),
    );
    // The 3rd had nothing: zero-filled.
    expect(dayOf(body, '03')).toEqual({
      date: '2025-03-03',
      activeUsers: 0,
      questions: 0,
      answers: 0,
      answered: 0,
      likes: 0,
      dislikes: 0,
      failedFiles: 0,
    });
    expect(dayOf(body, '04')).toMatchObject({ activeUsers: 1, questions: 0 });
    expect(dayOf(body, '05')).toMatchObject({
      activeUsers: 1,
      questions: 2,
      answers: 2,
      answered: 1,
      likes: 1,
      dislikes: 0,
    });
    expect(dayOf(body, '10')).toMatchObject({ activeUsers: 1 });
    expect(dayOf(body, '12')).toMatchObject({
      activeUsers: 3,
      questions: 2,
      answers: 2,
      answered: 2,
      likes: 1,
      dislikes: 1,
      failedFiles: 1,
    });
    expect(dayOf(body, '13')).toMatchObject({ questions: 1, answers: 0 });

    expect(body.weekly).toEqual([
      {
        week: '2025-03-03',
        newCompanies: 1,
        signUps: 1,
        activeUsers: 1,
        filesAdded: 1,
        bytesAdded: 200,
        files: 2,
        storageBytes: 300,
      },
      {
        week: '2025-03-10',
        newCompanies: 0,
        signUps: 1,
        activeUsers: 3,
        filesAdded: 1,
        bytesAdded: 300,
        files: 3,
        storageBytes: 600,
      },
    ]);
    expect(body.totals).toEqual({
      companies: 2,
      newCompanies: 1,
      signUps: 2,
      activeUsers: 3,
      files: 3,
      storageBytes: 600,
      filesAdded: 2,
      bytesAdded: 500,
      questions: 5,
      answers: 4,
      answered: 3,
      answeredShare: 0.75,
      likes: 2,
      dislikes: 1,
      satisfaction: 2 / 3,
      failedFiles: 1,
    });
  });

  it('lists whole weeks from their Monday but counts only the days inside the period', async () => {
    const admin = await signedInAdmin(t);
    // Wednesday 5th to Tuesday 11th: the weeks of the 3rd and of the 10th, each partly.
    const res = await admin.get('/analysis/dashboard?from=2025-03-05&to=2025-03-11');
    expect(res.status).toBe(200);
    expect(res.body.daily).toHaveLength(7);
    expect(res.body.weekly.map((w: { week: string }) => w.week)).toEqual(['2025-03-03', '2025-03-10']);
    // a1 signed up on the 4th, before the period; a2 on the 11th, inside it.
    expect(res.body.weekly.map((w: { signUps: number }) => w.signUps)).toEqual([0, 1]);
    expect(res.body.weekly.map((w: { activeUsers: number }) => w.activeUsers)).toEqual([1, 1]);
    // The files of the 4th and before are stored from the start; the 11th's is added.
    expect(res.body.weekly.map((w: { files: number }) => w.files)).toEqual([2, 3]);
    expect(res.body.totals).toMatchObject({ newCompanies: 0, signUps: 1, activeUsers: 2, questions: 2 });
  });

  it('covers the last 30 days up to today by default, zero-filled', async () => {
    const admin = await signedInAdmin(t);
    const res = await admin.get('/analysis/dashboard');
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body.period.to).toBe(today);
    expect(res.body.daily).toHaveLength(30);
    expect(res.body.daily.at(-1).date).toBe(today);
    const firstWeek = new Date(`${res.body.weekly[0].week}T00:00:00Z`);
    expect(firstWeek.getUTCDay()).toBe(1);
    expect(res.body.weekly[0].week <= res.body.period.from).toBe(true);
    expect(res.body.weekly.length).toBeGreaterThanOrEqual(5);
    // The seeded March 2025 lies before: every file is stored already, nothing was asked.
    expect(res.body.totals).toMatchObject({ files: 4, storageBytes: 1000, filesAdded: 0, questions: 0 });
  });

  it('refuses a period that ends before it starts or is longer than a year (PERIOD_INVALID), and malformed dates', async () => {
    const admin = await signedInAdmin(t);
    const backwards = await admin.get('/analysis/dashboard?from=2025-03-16&to=2025-03-03');
    expect(backwards.status).toBe(422);
    expect(backwards.body.error.code).toBe('PERIOD_INVALID');
    expect(backwards.body.error.message).toContain('366');
    const long = await admin.get('/analysis/dashboard?from=2024-03-02&to=2025-03-03');
    expect(long.status).toBe(422);
    expect(long.body.error.code).toBe('PERIOD_INVALID');
    const year = await admin.get('/analysis/dashboard?from=2024-03-03&to=2025-03-03');
    expect(year.status).toBe(200);
    expect(year.body.daily).toHaveLength(366);
    const malformed = await admin.get('/analysis/dashboard?from=3.3.2025');
    expect(malformed.status).toBe(422);
    expect(malformed.body.error.code).toBe('VALIDATION_FAILED');
    expect(malformed.body.error.details.fields[0].field).toBe('from');
    const admins = await admin.get('/admin/dashboard?from=2025-03-16&to=2025-03-03');
    expect(admins.body.error.code).toBe('PERIOD_INVALID');
  });

  it('needs the analysis permission: 401 without a session, 403 for staff and company users by default', async () => {
    expect((await t.client().get('/analysis/dashboard')).status).toBe(401);
    for (const kind of ['Staff', 'DataManager', 'Employee'] as const) {
      const { client } = await signedInAs(t, kind);
      const res = await client.get('/analysis/dashboard');
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });

  it("shows a company user granted the analysis permission their own company's figures only", async () => {
    const { client } = await signedInWithRules(
      t,
      'DataManager',
      [
        { action: 'read', subject: 'user' },
        { action: 'read', subject: 'analysis' },
      ],
      { companyId: ids.companyA },
    );
    const res = await client.get(`/analysis/dashboard${period}`);
    expect(res.status).toBe(200);
    expect(res.body.totals).toMatchObject({
      companies: 1,
      newCompanies: 1,
      signUps: 2,
      activeUsers: 2,
      files: 2,
      storageBytes: 300,
      questions: 3,
      likes: 1,
      dislikes: 1,
      failedFiles: 0,
    });
    expect(dayOf(res.body, '12')).toMatchObject({ activeUsers: 2, questions: 1 });
  });

  it('is granted to staff by a custom role and lost the moment the rule is revoked', async () => {
    const staff = await signedInWithRules(t, 'Staff', [
      { action: 'read', subject: 'admin' },
      { action: 'read', subject: 'analysis' },
    ]);
    expect((await staff.client.get(`/analysis/dashboard${period}`)).body.totals.companies).toBe(2);
    await t.server.ctx.db.execute(
      sql`update roles set rules = ${JSON.stringify([{ action: 'read', subject: 'admin' }])}::jsonb where id = ${staff.role.id}`,
    );
    expect((await staff.client.get(`/analysis/dashboard${period}`)).status).toBe(403);
  });
});

describe('GET /admin/dashboard with a period', () => {
  it("adds the period's figures to the operator's counters", async () => {
    const admin = await signedInAdmin(t);
    const res = await admin.get(`/admin/dashboard${period}`);
    expect(res.status).toBe(200);
    expect(res.body.companies).toBeGreaterThanOrEqual(3);
    expect(res.body.figures.period).toEqual({ from: '2025-03-03', to: '2025-03-16' });
    expect(res.body.figures.totals).toMatchObject({ questions: 5, answeredShare: 0.75, failedFiles: 1 });
    expect(res.body.figures.weekly).toHaveLength(2);
  });
});
