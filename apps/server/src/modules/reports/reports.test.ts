import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import {
  backdateFeedback,
  insertChat,
  insertDivision,
  insertExchange,
  insertPassage,
  insertThread,
  insertVisitor,
  type Thread,
} from '../../../test/support/chat-fixtures.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { saveFeedback } from '../feedback/feedback.service.ts';
import { CSV_COLUMNS, csvCell } from './feedback-csv.ts';

let t: TestServer;
let dm: Awaited<ReturnType<typeof signedInAs>>;
let employee: Awaited<ReturnType<typeof signedInAs>>;
let other: Awaited<ReturnType<typeof signedInAs>>;
let admin: ApiClient;
let companyA: string;
let companyB: string;
let companyBName: string;
let heizung: string;
let elektro: string;
let tagId: string;
let passageId: string;
/** The feedback ids of the scenario, by their number below. */
const f: Record<number, string> = {};

const at = (iso: string) => new Date(iso);
const today = () => new Date().toISOString().slice(0, 10);

async function feedbackOn(client: ApiClient, answerId: string, body: unknown) {
  const res = await client.request('PUT', `/messages/${answerId}/feedback`, body);
  if (res.status !== 200) throw new Error(`feedback failed: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/**
 * Company A: a data manager, an employee and a visitor of a public chat asking about their heating and their
 * fuse box, in March 2024 and today; company B: one unanswered question of its own.
 */
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  dm = await signedInAs(t, 'DataManager');
  companyA = dm.companyId!;
  employee = await signedInAs(t, 'Employee', { companyId: companyA });
  other = await signedInAs(t, 'DataManager');
  companyB = other.companyId!;
  const { rows } = await t.server.ctx.db.execute<{ name: string }>(
    sql`select name from companies where id = ${companyB}`,
  );
  companyBName = rows[0]!.name;
  admin = await signedInAdmin(t);

  heizung = (await insertDivision(t, companyA, 'Heizung')).id;
  elektro = (await insertDivision(t, companyA, 'Elektro')).id;
  const passage = await insertPassage(t, {
    companyId: companyA,
    divisionId: elektro,
    fileName: 'Verteilerplan.pdf',
    text: 'Die Küche hängt an Sicherung F12.',
    page: 4,
  });
  passageId = passage.passageId;
  tagId = (await dm.client.post('/tags', { name: 'Lob', color: 'success' })).body.id;

  const heatChat = await insertChat(t, {
    companyId: companyA,
    ownerId: dm.user.id,
    name: 'Heizung-Chat',
    divisionIds: [heizung],
  });
  const dmThread = await insertThread(t, { companyId: companyA, chatId: heatChat.id, userId: dm.user.id });
  const powerChat = await insertChat(t, {
    companyId: companyA,
    ownerId: dm.user.id,
    name: 'Elektro-Chat',
    divisionIds: [elektro],
  });
  const employeeThread = await insertThread(t, {
    companyId: companyA,
    chatId: powerChat.id,
    userId: employee.user.id,
  });
  const publicChat = await insertChat(t, {
    companyId: companyA,
    ownerId: dm.user.id,
    name: 'Kundenchat',
    divisionIds: [heizung],
  });
  const visitor = await insertVisitor(t, { companyId: companyA, chatId: publicChat.id, name: 'Anna Gast' });
  const visitorThread = await insertThread(t, {
    companyId: companyA,
    chatId: publicChat.id,
    visitorId: visitor.id,
  });

  // 1: the data manager, unanswered, disliked (10 March)
  const e1 = await insertExchange(t, dmThread, {
    question: 'Wie entlüfte ich den Heizkörper?',
    noAnswer: true,
    at: at('2024-03-10T09:00:00Z'),
  });
  f[1] = await feedbackOn(dm.client, e1.answerId, {
    liked: false,
    mood: 'negative',
    rating: 1,
    comment: 'Nichts gefunden',
  });
  await backdateFeedback(t, f[1], at('2024-03-10T09:05:00Z'));
  // 2: the employee, answered from the fuse plan, liked and tagged (11 March)
  const e2 = await insertExchange(t, employeeThread, {
    question: 'Welche Sicherung gehört zur Küche?',
    answer: 'Sicherung F12 [1].',
    citations: [
      {
        n: 1,
        passageId,
        fileId: passage.file.id,
        fileName: 'Verteilerplan.pdf',
        divisionId: elektro,
        page: 4,
        headingPath: [],
      },
    ],
    at: at('2024-03-11T09:50:00Z'),
  });
  f[2] = await feedbackOn(employee.client, e2.answerId, {
    liked: true,
    mood: 'happy',
    rating: 5,
    comment: '=HYPERLINK("http://evil.example","klick")',
    tagId,
  });
  await backdateFeedback(t, f[2], at('2024-03-11T10:00:00Z'));
  // 3: the visitor, unanswered, disliked (12 March)
  const e3 = await insertExchange(t, visitorThread, {
    question: 'Heizkörper entlüften – wie geht das?',
    noAnswer: true,
    at: at('2024-03-12T08:00:00Z'),
  });
  f[3] = (
    await saveFeedback(
      t.server.ctx,
      { visitorId: visitor.id },
      e3.answerId,
      { liked: false, comment: 'Bitte zurückrufen, "dringend"\nDanke' },
      'de',
    )
  ).id;
  await backdateFeedback(t, f[3], at('2024-03-12T08:10:00Z'));
  // 4: the data manager today, answered, a middling rating
  const e4 = await insertExchange(t, dmThread, { question: 'Wann ist die Wartung der Heizung fällig?' });
  f[4] = await feedbackOn(dm.client, e4.answerId, { rating: 3, comment: '@Team bitte prüfen' });
  // 5: the employee, unanswered, no feedback (10 March)
  await insertExchange(t, employeeThread, {
    question: 'Wie entlüftet man einen Heizkörper',
    noAnswer: true,
    at: at('2024-03-10T12:00:00Z'),
  });
  // 6: answered, no feedback (10 March)
  await insertExchange(t, dmThread, { question: 'Was kostet der Filter?', at: at('2024-03-10T11:00:00Z') });
  // 7: unanswered, something else entirely (13 March)
  await insertExchange(t, dmThread, {
    question: 'Wie hoch ist der Urlaubsanspruch?',
    noAnswer: true,
    at: at('2024-03-13T07:00:00Z'),
  });

  // Company B
  const bChat = await insertChat(t, { companyId: companyB, ownerId: other.user.id, name: 'B-Chat' });
  const bThread: Thread = await insertThread(t, {
    companyId: companyB,
    chatId: bChat.id,
    userId: other.user.id,
  });
  const b1 = await insertExchange(t, bThread, {
    question: 'Wie entlüfte ich den Heizkörper?',
    noAnswer: true,
    at: at('2024-03-10T10:00:00Z'),
  });
  f[8] = await feedbackOn(other.client, b1.answerId, { liked: false, comment: 'B-Geheimnis' });
  await backdateFeedback(t, f[8], at('2024-03-10T10:05:00Z'));
});
afterAll(() => t?.close());

const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((i) => i.id);
const numbered = (...n: number[]) => n.map((i) => f[i]);

describe('who may read the reports', () => {
  const routes = () => [
    '/feedback',
    `/feedback/${f[1]}`,
    '/feedback-export',
    '/feedback-series',
    '/knowledge-gaps',
  ];

  it('needs a session (401) and refuses employees (403)', async () => {
    for (const path of routes()) {
      const anonymous = await t.client().get(path);
      expect(anonymous.status, path).toBe(401);
      const res = await employee.client.get(path);
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });

  it("answers 404 to a data manager naming another company, or asking for another company's feedback", async () => {
    for (const path of ['/feedback', '/feedback-export', '/feedback-series', '/knowledge-gaps']) {
      const res = await dm.client.get(`${path}?companyId=${companyB}`);
      expect(res.status, path).toBe(404);
      expect((await dm.client.get(`${path}?companyId=${companyA}`)).status, path).toBe(200);
    }
    const res = await dm.client.get(`/feedback/${f[8]}`);
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('B-Geheimnis');
  });
});

describe('GET /feedback', () => {
  it("lists the company's feedback only, newest first, with copies, divisions and tags", async () => {
    const res = await dm.client.get('/feedback');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    expect(ids(res)).toEqual(numbered(4, 3, 2, 1));
    expect(JSON.stringify(res.body)).not.toContain('B-Geheimnis');
    const byId = new Map(res.body.items.map((i: { id: string }) => [i.id, i]));
    expect(byId.get(f[2])).toMatchObject({
      companyId: companyA,
      companyName: null,
      origin: 'employee',
      givenBy: `${employee.user.firstName} ${employee.user.lastName}`,
      chatName: 'Elektro-Chat',
      divisions: ['Elektro'],
      question: 'Welche Sicherung gehört zur Küche?',
      answer: 'Sicherung F12 [1].',
      noAnswer: false,
      liked: true,
      mood: 'happy',
      rating: 5,
      tagId,
      tagName: 'Lob',
      // The cited passage still exists: the list carries its text (the detail drawer shows it from the list).
      citations: [
        {
          n: 1,
          fileName: 'Verteilerplan.pdf',
          page: 4,
          passageId,
          text: 'Die Küche hängt an Sicherung F12.',
        },
      ],
      createdAt: '2024-03-11T10:00:00.000Z',
    });
    expect(byId.get(f[3])).toMatchObject({ origin: 'public', givenBy: 'Anna Gast', noAnswer: true });
  });

  it('filters by origin, like, rating, mood, tag, division, period (UTC days, inclusive) and words', async () => {
    const cases: Array<[string, number[]]> = [
      ['origin=employee', [2]],
      ['origin=public', [3]],
      ['origin=dataManager', [4, 1]],
      ['liked=false', [3, 1]],
      ['liked=true', [2]],
      ['rating=1', [1]],
      ['mood=happy', [2]],
      [`tagId=${tagId}`, [2]],
      [`divisionId=${heizung}`, [4, 3, 1]],
      [`divisionId=${elektro}`, [2]],
      ['from=2024-03-11&to=2024-03-11', [2]],
      ['from=2024-03-10&to=2024-03-11', [2, 1]],
      ['to=2024-03-10', [1]],
      ['from=2024-03-12', [4, 3]],
      ['q=gefunden', [1]],
      ['q=sicherung', [2]],
      ['q=F12', [2]],
      ['q=%25', []],
      ['origin=dataManager&rating=1', [1]],
    ];
    for (const [query, expected] of cases) {
      const res = await dm.client.get(`/feedback?${query}`);
      expect(res.status, query).toBe(200);
      expect(ids(res), query).toEqual(numbered(...expected));
      expect(res.body.total, query).toBe(expected.length);
    }
  });

  it('sorts and pages', async () => {
    expect(ids(await dm.client.get('/feedback?sort=rating')).slice(0, 3)).toEqual(numbered(1, 4, 2));
    expect(ids(await dm.client.get('/feedback?sort=-createdAt'))).toEqual(numbered(4, 3, 2, 1));
    expect(ids(await dm.client.get('/feedback?sort=createdAt'))).toEqual(numbered(1, 2, 3, 4));
    const page2 = await dm.client.get('/feedback?page=2&pageSize=5');
    expect(page2.body).toMatchObject({ items: [], total: 4, page: 2, pageSize: 5 });
    expect((await dm.client.get('/feedback?pageSize=7')).status).toBe(422);
  });

  it("shows an administrator every company's feedback with the company's name, or one company's", async () => {
    const all = await admin.get('/feedback?pageSize=100');
    expect(all.status).toBe(200);
    const mine = all.body.items.filter((i: { id: string }) => Object.values(f).includes(i.id));
    expect(mine).toHaveLength(5);
    const b = all.body.items.find((i: { id: string }) => i.id === f[8]);
    expect(b).toMatchObject({ companyId: companyB, companyName: companyBName, comment: 'B-Geheimnis' });
    const onlyB = await admin.get(`/feedback?companyId=${companyB}`);
    expect(ids(onlyB)).toEqual([f[8]]);
    const onlyA = await admin.get(`/feedback?companyId=${companyA}&origin=public`);
    expect(ids(onlyA)).toEqual([f[3]]);
  });
});

describe('GET /feedback/:feedbackId', () => {
  it('shows the cited passage while it exists, and only its file name and page once it is gone', async () => {
    const res = await dm.client.get(`/feedback/${f[2]}`);
    expect(res.status).toBe(200);
    expect(res.body.citations).toEqual([
      {
        n: 1,
        fileId: expect.any(String),
        fileName: 'Verteilerplan.pdf',
        page: 4,
        passageId,
        text: 'Die Küche hängt an Sicherung F12.',
      },
    ]);
    const fromAdmin = await admin.get(`/feedback/${f[8]}`);
    expect(fromAdmin.status).toBe(200);
    expect(fromAdmin.body.companyName).toBe(companyBName);
    expect((await dm.client.get(`/feedback/${crypto.randomUUID()}`)).status).toBe(404);

    await t.server.ctx.db.execute(sql`delete from passages where id = ${passageId}`);
    const gone = await dm.client.get(`/feedback/${f[2]}`);
    expect(gone.body.citations).toEqual([
      { n: 1, fileId: expect.any(String), fileName: 'Verteilerplan.pdf', page: 4, passageId, text: null },
    ]);
  });
});

describe('GET /feedback-export', () => {
  /** The raw bytes: fetch's text() would swallow the byte-order mark. */
  async function download(client: ApiClient, query = '') {
    const res = await fetch(`${t.url}/api/v1/feedback-export${query}`, {
      headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  it('downloads the filtered feedback as UTF-8 CSV with a BOM, quoting and no formulas', async () => {
    const { res, bytes } = await download(dm.client);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="feedback-${today()}.csv"`);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: string[][] = parse(bytes.subarray(3).toString('utf8'));
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(5);
    const column = (name: (typeof CSV_COLUMNS)[number]) => CSV_COLUMNS.indexOf(name);
    const byQuestion = new Map(rows.slice(1).map((r) => [r[column('question')], r]));
    const fuse = byQuestion.get('Welche Sicherung gehört zur Küche?')!;
    expect(fuse[column('comment')]).toBe(`'=HYPERLINK("http://evil.example","klick")`);
    expect(fuse[column('origin')]).toBe('employee');
    expect(fuse[column('tag')]).toBe('Lob');
    expect(fuse[column('citations')]).toBe('[1] Verteilerplan.pdf p. 4');
    expect(fuse[column('liked')]).toBe('true');
    expect(fuse[column('rating')]).toBe('5');
    expect(fuse[column('createdAt')]).toBe('2024-03-11T10:00:00.000Z');
    expect(byQuestion.get('Heizkörper entlüften – wie geht das?')![column('comment')]).toBe(
      'Bitte zurückrufen, "dringend"\nDanke',
    );
    expect(byQuestion.get('Wann ist die Wartung der Heizung fällig?')![column('comment')]).toBe(
      "'@Team bitte prüfen",
    );
    expect(bytes.toString('utf8')).not.toContain('B-Geheimnis');
    expect(bytes.toString('utf8')).toContain('\r\n');

    const filtered = parse((await download(dm.client, '?origin=public')).bytes.subarray(3).toString('utf8'));
    expect(filtered).toHaveLength(2);
  });

  it('guards every cell a spreadsheet would run as a formula', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+49 151')).toBe("'+49 151");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUMME(A1)')).toBe("'@SUMME(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('a=1')).toBe('a=1');
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell('sagt "hallo"')).toBe('"sagt ""hallo"""');
    expect(csvCell(null)).toBe('');
    expect(csvCell(false)).toBe('false');
  });
});

describe('GET /feedback-series', () => {
  it('lists every day of the period, also days without anything', async () => {
    const res = await dm.client.get('/feedback-series?from=2024-03-09&to=2024-03-13');
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { date: '2024-03-09', questions: 0, likes: 0, dislikes: 0, feedback: 0, averageRating: null },
      { date: '2024-03-10', questions: 3, likes: 0, dislikes: 1, feedback: 1, averageRating: 1 },
      { date: '2024-03-11', questions: 1, likes: 1, dislikes: 0, feedback: 1, averageRating: 5 },
      { date: '2024-03-12', questions: 1, likes: 0, dislikes: 1, feedback: 1, averageRating: null },
      { date: '2024-03-13', questions: 1, likes: 0, dislikes: 0, feedback: 0, averageRating: null },
    ]);
  });

  it('applies the origin and division to questions and every filter to feedback', async () => {
    const byOrigin = await dm.client.get('/feedback-series?from=2024-03-10&to=2024-03-11&origin=employee');
    expect(
      byOrigin.body.items.map((d: { questions: number; feedback: number }) => [d.questions, d.feedback]),
    ).toEqual([
      [1, 0],
      [1, 1],
    ]);
    const byDivision = await dm.client.get(
      `/feedback-series?from=2024-03-10&to=2024-03-10&divisionId=${heizung}`,
    );
    expect(byDivision.body.items[0]).toMatchObject({ questions: 2, dislikes: 1 });
    const liked = await dm.client.get('/feedback-series?from=2024-03-10&to=2024-03-11&liked=true');
    expect(liked.body.items.map((d: { feedback: number }) => d.feedback)).toEqual([0, 1]);
  });

  it('covers the last 30 days by default and refuses a period over two years', async () => {
    const res = await dm.client.get('/feedback-series');
    expect(res.body.items).toHaveLength(30);
    expect(res.body.items.at(-1)).toMatchObject({
      date: today(),
      questions: 1,
      feedback: 1,
      averageRating: 3,
    });
    const long = await dm.client.get('/feedback-series?from=2020-01-01&to=2024-01-01');
    expect(long.status).toBe(422);
    expect(long.body.error.details.fields[0].field).toBe('from');
    expect((await dm.client.get('/feedback-series?from=2024-03-12&to=2024-03-10')).body.items).toEqual([]);
  });

  it("sums every company for an administrator, or one company's", async () => {
    const all = await admin.get('/feedback-series?from=2024-03-10&to=2024-03-10');
    expect(all.body.items[0]).toMatchObject({ questions: 4, dislikes: 2 });
    const b = await admin.get(`/feedback-series?from=2024-03-10&to=2024-03-10&companyId=${companyB}`);
    expect(b.body.items[0]).toMatchObject({ questions: 1, dislikes: 1, feedback: 1 });
  });
});

describe('GET /knowledge-gaps', () => {
  it('groups unanswered and disliked questions that ask the same thing, biggest group first', async () => {
    const res = await dm.client.get('/knowledge-gaps');
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      {
        question: 'Heizkörper entlüften – wie geht das?',
        variants: ['Wie entlüftet man einen Heizkörper', 'Wie entlüfte ich den Heizkörper?'],
        count: 3,
        noAnswerCount: 3,
        negativeCount: 2,
        divisions: ['Elektro', 'Heizung'],
        lastAskedAt: '2024-03-12T08:00:00.000Z',
        companyName: null,
      },
      {
        question: 'Wie hoch ist der Urlaubsanspruch?',
        variants: [],
        count: 1,
        noAnswerCount: 1,
        negativeCount: 0,
        divisions: ['Heizung'],
        lastAskedAt: '2024-03-13T07:00:00.000Z',
        companyName: null,
      },
    ]);
  });

  it('applies origin, division and period', async () => {
    const questions = async (query: string) =>
      (await dm.client.get(`/knowledge-gaps?${query}`)).body.items.map(
        (g: { question: string; count: number }) => [g.question, g.count],
      );
    expect(await questions('origin=public')).toEqual([['Heizkörper entlüften – wie geht das?', 1]]);
    expect(await questions(`divisionId=${elektro}`)).toEqual([['Wie entlüftet man einen Heizkörper', 1]]);
    expect(await questions('from=2024-03-12')).toEqual([
      ['Wie hoch ist der Urlaubsanspruch?', 1],
      ['Heizkörper entlüften – wie geht das?', 1],
    ]);
  });

  it('keeps companies apart and names them for an administrator', async () => {
    const res = await admin.get('/knowledge-gaps?from=2024-03-10&to=2024-03-13');
    const ofB = res.body.items.filter((g: { companyName: string }) => g.companyName === companyBName);
    expect(ofB).toEqual([
      expect.objectContaining({ question: 'Wie entlüfte ich den Heizkörper?', count: 1, negativeCount: 1 }),
    ]);
    const onlyB = await admin.get(`/knowledge-gaps?companyId=${companyB}`);
    expect(onlyB.body.items).toHaveLength(1);
  });
});
