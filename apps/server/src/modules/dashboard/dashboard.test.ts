import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conversationOf,
  insertDivision,
  insertExchange,
  insertPassage,
} from '../../../test/support/chat-fixtures.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import {
  signedInAdmin,
  signedInDataManager,
  startTestServer,
  type TestServer,
} from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false, env: { TRIAL_DAYS: '30' } });
});
afterAll(() => t?.close());

describe('GET /dashboard', () => {
  it("shows the data manager's own company, trial and next steps", async () => {
    const { client } = await signedInDataManager(t, { companyName: 'Elektro Weber' });
    const res = await client.get('/dashboard');
    expect(res.status).toBe(200);
    expect(res.body.company.name).toBe('Elektro Weber');
    expect(res.body.plan).toMatchObject({
      plan: 'trial',
      status: 'trial',
      daysRemaining: 30,
      daysTotal: 30,
    });
    expect(res.body.nextSteps).toEqual([
      { step: 'verifyEmail', done: false },
      { step: 'completeProfile', done: true },
      { step: 'uploadDocuments', done: false },
    ]);
    expect(res.body.chat).toMatchObject({
      filesReady: 0,
      questionsThisWeek: 0,
      questionsLastWeek: 0,
      answeredShare: null,
      satisfaction: null,
      gaps: [],
    });
    expect(res.body.chat.series).toHaveLength(30);
    expect(res.body.chat.series.at(-1).date).toBe(new Date().toISOString().slice(0, 10));
    expect(
      res.body.chat.series.every(
        (d: { questions: number; likes: number; dislikes: number }) =>
          d.questions === 0 && d.likes === 0 && d.dislikes === 0,
      ),
    ).toBe(true);
  });

  it("shows the company's chat figures: files, questions by week, answered share, satisfaction, series, gaps", async () => {
    const dm = await signedInAs(t, 'DataManager');
    const other = await signedInAs(t, 'DataManager');
    const companyId = dm.companyId!;
    const division = await insertDivision(t, companyId, 'Heizung');
    await insertPassage(t, {
      companyId,
      divisionId: division.id,
      text: 'Der Filter wird jährlich getauscht.',
    });
    const thread = await conversationOf(t, dm.user, { divisionIds: [division.id] });
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

    // This week: three answered, one unanswered; the week before: two; older: one.
    const answered = [];
    for (const question of ['Filter?', 'Pumpe?', 'Ventil?']) {
      answered.push((await insertExchange(t, thread, { question, at: daysAgo(1) })).answerId);
    }
    await insertExchange(t, thread, {
      question: 'Wie entlüfte ich den Heizkörper?',
      noAnswer: true,
      at: daysAgo(2),
    });
    await insertExchange(t, thread, { question: 'Alt?', at: daysAgo(9) });
    await insertExchange(t, thread, { question: 'Älter?', at: daysAgo(10) });
    await insertExchange(t, thread, { question: 'Uralt?', at: daysAgo(20) });
    // Another company's questions and feedback never count.
    const foreign = await insertExchange(t, await conversationOf(t, other.user), {
      question: 'Fremd?',
      noAnswer: true,
    });
    await other.client.request('PUT', `/messages/${foreign.answerId}/feedback`, { liked: false });

    const likes = [true, true, false];
    for (const [i, liked] of likes.entries()) {
      const res = await dm.client.request('PUT', `/messages/${answered[i]}/feedback`, { liked });
      expect(res.status).toBe(200);
    }

    const res = await dm.client.get('/dashboard');
    expect(res.status).toBe(200);
    const chat = res.body.chat;
    expect(chat).toMatchObject({
      filesReady: 1,
      questionsThisWeek: 4,
      questionsLastWeek: 2,
      answeredShare: 0.75,
    });
    expect(chat.satisfaction).toBeCloseTo(2 / 3);
    expect(res.body.nextSteps).toContainEqual({ step: 'uploadDocuments', done: true });
    expect(chat.series).toHaveLength(30);
    const sum = (key: 'questions' | 'likes' | 'dislikes') =>
      chat.series.reduce(
        (s: number, d: { questions: number; likes: number; dislikes: number }) => s + d[key],
        0,
      );
    expect([sum('questions'), sum('likes'), sum('dislikes')]).toEqual([7, 2, 1]);
    expect(chat.series.at(-1)).toMatchObject({ likes: 2, dislikes: 1 });
    // The disliked answer and the unanswered question, newest first.
    expect(chat.gaps).toEqual([
      expect.objectContaining({ question: 'Ventil?', count: 1, noAnswerCount: 0, negativeCount: 1 }),
      expect.objectContaining({
        question: 'Wie entlüfte ich den Heizkörper?',
        count: 1,
        noAnswerCount: 1,
        negativeCount: 0,
        divisions: ['Heizung'],
        companyName: null,
      }),
    ]);
  });

  it('never shows another company, and is refused to employees (403)', async () => {
    const a = await signedInDataManager(t, { companyName: 'Firma A' });
    const b = await signedInDataManager(t, { companyName: 'Firma B' });
    expect((await a.client.get('/dashboard')).body.company.name).toBe('Firma A');
    expect((await b.client.get('/dashboard')).body.company.name).toBe('Firma B');
    const employee = await signedInAs(t, 'Employee');
    expect((await employee.client.get('/dashboard')).status).toBe(403);
  });
});

describe('GET /admin/dashboard', () => {
  it('counts companies, users by kind and mails by status for the operator only', async () => {
    await signedInDataManager(t);
    const admin = await signedInAdmin(t);
    const res = await admin.get('/admin/dashboard');
    expect(res.status).toBe(200);
    expect(res.body.companies).toBeGreaterThanOrEqual(1);
    expect(res.body.users.Administrator).toBe(1);
    expect(res.body.users.DataManager).toBeGreaterThanOrEqual(1);
    expect(res.body.signInsLast7Days).toBeGreaterThanOrEqual(2);
    const { client } = await signedInDataManager(t);
    expect((await client.get('/admin/dashboard')).status).toBe(403);
  });
});
