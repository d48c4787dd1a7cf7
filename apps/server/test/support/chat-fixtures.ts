import { sql } from 'drizzle-orm';
import {
  chatDivisions,
  chatMessages,
  chats,
  chatThreads,
  chatVisitors,
  divisions,
  files,
  type StoredCitation,
} from '../../src/db/schema/index.ts';
import type { TestServer } from './test-server.ts';

/**
 * Chats, threads and answered questions written straight into the database, for the reports and feedback tests
 * (no language model, no streaming). Times can be set to place questions on given days.
 */

const db = (t: TestServer) => t.server.ctx.db;
let n = 0;

export async function insertDivision(t: TestServer, companyId: string, name = `Bereich ${++n}`) {
  const [row] = await db(t).insert(divisions).values({ companyId, name }).returning();
  return row!;
}

/** A ready file with one published passage (for citations that point at live passage text). */
export async function insertPassage(
  t: TestServer,
  options: { companyId: string; divisionId: string; fileName?: string; text: string; page?: number | null },
) {
  n++;
  const [file] = await db(t)
    .insert(files)
    .values({
      companyId: options.companyId,
      divisionId: options.divisionId,
      name: options.fileName ?? `Handbuch-${n}.pdf`,
      sizeBytes: 100,
      mimeType: 'application/pdf',
      kind: 'pdf',
      sha256: `sha-${n}-${Date.now()}`,
      storageKey: `test/${n}`,
      status: 'ready',
      activeGeneration: 1,
      passageCount: 1,
    })
    .returning();
  const { rows } = await db(t).execute<{ id: string }>(sql`insert into passages
      (file_id, company_id, division_id, generation, ordinal, text, page, text_config, tsv, token_count)
    values (${file!.id}, ${options.companyId}, ${options.divisionId}, 1, 0, ${options.text}, ${options.page ?? null},
      'german', to_tsvector('german', ${options.text}), 10)
    returning id`);
  return { file: file!, passageId: rows[0]!.id };
}

export async function insertChat(
  t: TestServer,
  options: { companyId: string; ownerId: string; name?: string; divisionIds?: string[] },
) {
  const [chat] = await db(t)
    .insert(chats)
    .values({ companyId: options.companyId, ownerId: options.ownerId, name: options.name ?? `Chat ${++n}` })
    .returning();
  if (options.divisionIds?.length) {
    await db(t)
      .insert(chatDivisions)
      .values(options.divisionIds.map((divisionId) => ({ chatId: chat!.id, divisionId })));
  }
  return chat!;
}

export async function insertVisitor(
  t: TestServer,
  options: { companyId: string; chatId: string; name?: string; phone?: string; email?: string },
) {
  const [visitor] = await db(t)
    .insert(chatVisitors)
    .values({
      companyId: options.companyId,
      chatId: options.chatId,
      tokenHash: `visitor-${++n}-${Date.now()}`,
      name: options.name ?? null,
      phone: options.phone ?? null,
      email: options.email ?? null,
    })
    .returning();
  return visitor!;
}

export interface Thread {
  id: string;
  companyId: string;
  chatId: string;
}

export async function insertThread(
  t: TestServer,
  options: { companyId: string; chatId: string; userId?: string; visitorId?: string },
): Promise<Thread> {
  const [thread] = await db(t)
    .insert(chatThreads)
    .values({
      companyId: options.companyId,
      chatId: options.chatId,
      userId: options.userId ?? null,
      visitorId: options.visitorId ?? null,
    })
    .returning();
  return thread!;
}

/** A user's own conversation: a chat (over the given divisions) and their thread in it. */
export async function conversationOf(
  t: TestServer,
  user: { id: string; companyId: string | null },
  options: { name?: string; divisionIds?: string[] } = {},
): Promise<Thread> {
  const chat = await insertChat(t, { companyId: user.companyId!, ownerId: user.id, ...options });
  return insertThread(t, { companyId: user.companyId!, chatId: chat.id, userId: user.id });
}

/** A question and its answer in a thread; returns both message ids. */
export async function insertExchange(
  t: TestServer,
  thread: Thread,
  options: {
    question: string;
    answer?: string;
    noAnswer?: boolean;
    citations?: StoredCitation[];
    at?: Date;
    status?: 'streaming' | 'complete' | 'stopped' | 'interrupted';
  },
) {
  const at = options.at ?? new Date();
  const [question] = await db(t)
    .insert(chatMessages)
    .values({
      companyId: thread.companyId,
      chatId: thread.chatId,
      threadId: thread.id,
      role: 'user',
      content: options.question,
      createdAt: at,
    })
    .returning();
  const [answer] = await db(t)
    .insert(chatMessages)
    .values({
      companyId: thread.companyId,
      chatId: thread.chatId,
      threadId: thread.id,
      role: 'assistant',
      content:
        options.answer ??
        (options.noAnswer ? 'Dazu finde ich nichts in den Unterlagen.' : 'So geht das laut Handbuch [1].'),
      questionId: question!.id,
      noAnswer: options.noAnswer ?? false,
      citations: options.citations ?? [],
      status: options.status ?? 'complete',
      createdAt: new Date(at.getTime() + 1000),
      completedAt: new Date(at.getTime() + 2000),
    })
    .returning();
  return { questionId: question!.id, answerId: answer!.id };
}

/** Moves a feedback's creation time (for the period filters and per-day figures). */
export async function backdateFeedback(t: TestServer, feedbackId: string, at: Date) {
  await db(t).execute(
    sql`update feedback set created_at = ${at.toISOString()}::timestamptz where id = ${feedbackId}`,
  );
}
