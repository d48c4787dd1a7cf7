import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import {
  conversationOf,
  insertChat,
  insertDivision,
  insertExchange,
  insertThread,
  insertVisitor,
} from '../../../test/support/chat-fixtures.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { loadUserActor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { feedback } from '../../db/schema/index.ts';
import { saveFeedback } from './feedback.service.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

const give = (client: ApiClient, messageId: string, body: unknown) =>
  client.request('PUT', `/messages/${messageId}/feedback`, body);

async function storedFeedback(messageId: string) {
  const [row] = await t.server.ctx.db.select().from(feedback).where(eq(feedback.messageId, messageId));
  return row;
}

const citation = (n: number, fileName: string, page: number | null) => ({
  n,
  passageId: crypto.randomUUID(),
  fileId: crypto.randomUUID(),
  fileName,
  divisionId: crypto.randomUUID(),
  page,
  headingPath: ['Wartung'],
});

describe('PUT /messages/:messageId/feedback', () => {
  it('saves one feedback per answer with a copy of question, answer and citations; later calls change only what they name', async () => {
    const dm = await signedInAs(t, 'DataManager');
    const heizung = await insertDivision(t, dm.companyId!, 'Heizung');
    const thread = await conversationOf(t, dm.user, { name: 'Technik-Chat', divisionIds: [heizung.id] });
    const cited = [citation(1, 'Wartung.pdf', 3), citation(2, 'Notizen.docx', null)];
    const { answerId } = await insertExchange(t, thread, {
      question: 'Wie oft wird der Filter gereinigt?',
      answer: 'Alle sechs Monate [1].',
      citations: cited,
    });

    const first = await give(dm.client, answerId, { liked: true });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      messageId: answerId,
      liked: true,
      mood: null,
      rating: null,
      comment: null,
      tagId: null,
      tagName: null,
    });
    const copy = await storedFeedback(answerId);
    expect(copy).toMatchObject({
      companyId: dm.companyId,
      chatId: thread.chatId,
      chatName: 'Technik-Chat',
      divisionIds: [heizung.id],
      userId: dm.user.id,
      visitorId: null,
      origin: 'dataManager',
      givenBy: `${dm.user.firstName} ${dm.user.lastName}`,
      question: 'Wie oft wird der Filter gereinigt?',
      answer: 'Alle sechs Monate [1].',
      noAnswer: false,
    });
    // File name and page, never the passage text or anything else of the stored citation.
    expect(copy!.citations).toEqual(
      cited.map(({ n, fileId, fileName, page, passageId }) => ({ n, fileId, fileName, page, passageId })),
    );

    const tag = (await dm.client.post('/tags', { name: 'Veraltet', color: 'warning' })).body;
    await t.server.ctx.db.execute(sql`update chats set name = 'Umbenannt' where id = ${thread.chatId}`);
    const second = await give(dm.client, answerId, { rating: 4, comment: '  Gut erklärt  ', tagId: tag.id });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      id: first.body.id,
      liked: true,
      rating: 4,
      comment: 'Gut erklärt',
      tagId: tag.id,
      tagName: 'Veraltet',
    });
    expect(Date.parse(second.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.body.updatedAt));

    const third = await give(dm.client, answerId, { liked: null, comment: null, mood: 'happy' });
    expect(third.body).toMatchObject({ liked: null, comment: null, mood: 'happy', rating: 4, tagId: tag.id });
    const [{ n }] = (
      await t.server.ctx.db.execute<{ n: number }>(
        sql`select count(*)::int as n from feedback where message_id = ${answerId}`,
      )
    ).rows as [{ n: number }];
    expect(n).toBe(1);
    // The copy was taken once: renaming the chat afterwards does not change it.
    expect((await storedFeedback(answerId))!.chatName).toBe('Technik-Chat');

    const cleared = await give(dm.client, answerId, { tagId: null });
    expect(cleared.body).toMatchObject({ tagId: null, tagName: null, mood: 'happy' });
  });

  it('lets an employee rate answers of their own thread only; nobody reaches another user’s answer (404)', async () => {
    const dm = await signedInAs(t, 'DataManager');
    const employee = await signedInAs(t, 'Employee', { companyId: dm.companyId });
    const own = await insertExchange(t, await conversationOf(t, employee.user), {
      question: 'Wo ist der Schlüssel?',
    });
    const managers = await insertExchange(t, await conversationOf(t, dm.user), {
      question: 'Wer hat Urlaub?',
    });

    const res = await give(employee.client, own.answerId, { liked: false, mood: 'negative' });
    expect(res.status).toBe(200);
    expect(await storedFeedback(own.answerId)).toMatchObject({
      origin: 'employee',
      givenBy: `${employee.user.firstName} ${employee.user.lastName}`,
      userId: employee.user.id,
    });

    for (const [client, messageId] of [
      [employee.client, managers.answerId],
      [dm.client, own.answerId],
    ] as const) {
      const refused = await give(client, messageId, { liked: true });
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('NOT_FOUND');
    }
    expect(await storedFeedback(managers.answerId)).toBeUndefined();
  });

  it("answers 404 for another company's answer, a question, an unknown id and an answer still being written", async () => {
    const a = await signedInAs(t, 'DataManager');
    const b = await signedInAs(t, 'DataManager');
    const thread = await conversationOf(t, a.user);
    const done = await insertExchange(t, thread, { question: 'Was kostet der Filter?' });
    const streaming = await insertExchange(t, thread, { question: 'Und die Pumpe?', status: 'streaming' });
    expect((await give(b.client, done.answerId, { liked: true })).status).toBe(404);
    expect((await give(a.client, done.questionId, { liked: true })).status).toBe(404);
    expect((await give(a.client, crypto.randomUUID(), { liked: true })).status).toBe(404);
    expect((await give(a.client, streaming.answerId, { liked: true })).status).toBe(404);
    expect(await storedFeedback(done.answerId)).toBeUndefined();
  });

  it("refuses another company's tag as VALIDATION_FAILED on tagId, and empty or unknown bodies", async () => {
    const a = await signedInAs(t, 'DataManager');
    const b = await signedInAs(t, 'DataManager');
    const foreignTag = (await b.client.post('/tags', { name: 'Fremd' })).body;
    const { answerId } = await insertExchange(t, await conversationOf(t, a.user), { question: 'Wie spät?' });

    const res = await give(a.client, answerId, { liked: true, tagId: foreignTag.id });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['tagId']);
    expect((await give(a.client, answerId, { liked: true, tagId: crypto.randomUUID() })).status).toBe(422);
    expect(await storedFeedback(answerId)).toBeUndefined();

    expect((await give(a.client, answerId, {})).status).toBe(422);
    expect((await give(a.client, answerId, { liked: true, extra: 1 })).status).toBe(422);
    expect((await give(a.client, answerId, { rating: 6 })).status).toBe(422);
    expect((await give(a.client, answerId, { mood: 'angry' })).status).toBe(422);
  });

  it('needs a session', async () => {
    const res = await give(t.client(), crypto.randomUUID(), { liked: true });
    expect(res.status).toBe(401);
  });
});

describe('saveFeedback for visitors of a public chat', () => {
  async function visitorExchange(visitor: { name?: string; phone?: string; email?: string }) {
    const dm = await signedInAs(t, 'DataManager');
    const chat = await insertChat(t, { companyId: dm.companyId!, ownerId: dm.user.id, name: 'Kundenchat' });
    const v = await insertVisitor(t, { companyId: dm.companyId!, chatId: chat.id, ...visitor });
    const thread = await insertThread(t, { companyId: dm.companyId!, chatId: chat.id, visitorId: v.id });
    const exchange = await insertExchange(t, thread, {
      question: 'Haben Sie samstags geöffnet?',
      noAnswer: true,
    });
    return { dm, visitorId: v.id, ...exchange };
  }

  it("keeps the visitor's feedback as public, named by name, else phone, else e-mail, else a dash", async () => {
    const named = await visitorExchange({
      name: 'Anna Schmidt',
      phone: '+49 30 1234',
      email: 'anna@x.example',
    });
    const saved = await saveFeedback(
      t.server.ctx,
      { visitorId: named.visitorId },
      named.answerId,
      { liked: false },
      'de',
    );
    expect(saved).toMatchObject({ messageId: named.answerId, liked: false });
    expect(await storedFeedback(named.answerId)).toMatchObject({
      origin: 'public',
      givenBy: 'Anna Schmidt',
      visitorId: named.visitorId,
      userId: null,
      chatName: 'Kundenchat',
      noAnswer: true,
      question: 'Haben Sie samstags geöffnet?',
    });

    for (const [visitor, expected] of [
      [{ phone: '+49 30 9876' }, '+49 30 9876'],
      [{ email: 'gast@x.example' }, 'gast@x.example'],
      [{}, '—'],
    ] as const) {
      const v = await visitorExchange(visitor);
      await saveFeedback(t.server.ctx, { visitorId: v.visitorId }, v.answerId, { rating: 2 }, 'en');
      expect((await storedFeedback(v.answerId))!.givenBy).toBe(expected);
    }
  });

  it("refuses another visitor's answer and a user's answer to a visitor (not found)", async () => {
    const one = await visitorExchange({ name: 'Eins' });
    const two = await visitorExchange({ name: 'Zwei' });
    const userAnswer = await insertExchange(t, await conversationOf(t, one.dm.user), { question: 'Intern?' });
    const dmActor = (await loadUserActor(t.server.ctx.db, one.dm.user.id, null))!;
    for (const [giver, messageId] of [
      [{ visitorId: two.visitorId }, one.answerId],
      [{ visitorId: one.visitorId }, userAnswer.answerId],
      [{ actor: dmActor }, one.answerId],
    ] as const) {
      const error = await saveFeedback(t.server.ctx, giver, messageId, { liked: true }, 'de').catch((e) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe('NOT_FOUND');
    }
  });
});
