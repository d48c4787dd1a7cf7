import type { AnswerProvider, ErrorCode, Language, MessageStatus } from '@werkwissen/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { chatMessages, type StoredCitation } from '../../db/schema/index.ts';
import type { ChatRecord } from './chats.queries.ts';
import type { Turn } from './prompt.ts';

/** A stored message of a thread: a question or an answer. */
export interface StoredMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  errorCode: string | null;
  noAnswer: boolean;
  citations: StoredCitation[];
  provider: AnswerProvider | null;
  model: string | null;
  createdAt: Date;
}

interface MessageRow extends Record<string, unknown> {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  error_code: string | null;
  no_answer: boolean;
  citations: StoredCitation[];
  provider: AnswerProvider | null;
  model: string | null;
  created_at: string | Date;
}

const messageColumns = sql`m.id, m.role, m.content, m.status, m.error_code, m.no_answer, m.citations, m.provider,
  m.model, m.created_at`;

const toMessage = (row: MessageRow): StoredMessage => ({
  id: row.id,
  role: row.role,
  content: row.content,
  status: row.status,
  errorCode: row.error_code,
  noAnswer: row.no_answer,
  citations: row.citations,
  provider: row.provider,
  model: row.model,
  createdAt: new Date(row.created_at),
});

const STREAMING: MessageStatus = 'streaming';
const INTERRUPTED: MessageStatus = 'interrupted';
/** Answers the history shows a model: written to the end, or stopped by the asker. */
const FINISHED: MessageStatus[] = ['complete', 'stopped'];
const QUESTION = 'user' satisfies StoredMessage['role'];
const ANSWER = 'assistant' satisfies StoredMessage['role'];
const STREAM_INTERRUPTED: ErrorCode = 'PROVIDER_STREAM_INTERRUPTED';

/** A thread's newest `limit` messages, oldest first (a question before its answer). */
export async function threadMessageList(
  db: DbOrTx,
  threadId: string,
  limit: number,
): Promise<StoredMessage[]> {
  const { rows } =
    await db.execute<MessageRow>(sql`select * from (select ${messageColumns} from chat_messages m
    where m.thread_id = ${threadId} order by m.created_at desc, m.id desc limit ${limit}) x
    order by x.created_at, x.role desc`);
  return rows.map(toMessage);
}

export async function findMessage(db: DbOrTx, messageId: string): Promise<StoredMessage | null> {
  const { rows } = await db.execute<MessageRow>(
    sql`select ${messageColumns} from chat_messages m where m.id = ${messageId}`,
  );
  return rows[0] ? toMessage(rows[0]) : null;
}

/**
 * Marks every answer still `streaming` as interrupted, its partial text kept; how many there were.
 */
export async function interruptStreamingAnswers(db: DbOrTx): Promise<number> {
  const rows = await db
    .update(chatMessages)
    .set({ status: INTERRUPTED, errorCode: STREAM_INTERRUPTED, completedAt: sql`now()` })
    .where(eq(chatMessages.status, STREAMING))
    .returning({ id: chatMessages.id });
  return rows.length;
}

/** The question an answer of a thread answers, or null. */
export async function questionOfAnswer(
  db: DbOrTx,
  threadId: string,
  answerId: string,
): Promise<{ id: string; content: string } | null> {
  const { rows } = await db.execute<{ question_id: string; content: string }>(sql`
    select q.id as question_id, q.content from chat_messages a
    join chat_messages q on q.id = a.question_id
    where a.id = ${answerId} and a.thread_id = ${threadId} and a.role = ${ANSWER}`);
  const row = rows[0];
  return row ? { id: row.question_id, content: row.content } : null;
}

export async function deleteMessage(db: DbOrTx, messageId: string): Promise<void> {
  await db.delete(chatMessages).where(eq(chatMessages.id, messageId));
}

/** The finished turns of a thread before a question (all of them when `before` is null), at most the last eight. */
export async function turnsBefore(db: DbOrTx, threadId: string, before: string | null): Promise<Turn[]> {
  const { rows } = await db.execute<{ role: Turn['role']; content: string }>(sql`select role, content from (
      select m.role, m.content, m.created_at from chat_messages m
      where m.thread_id = ${threadId} and m.status in ${FINISHED} and m.content <> ''
        ${before ? sql`and m.created_at < (select created_at from chat_messages where id = ${before})` : sql``}
      order by m.created_at desc, m.role limit 8) x order by x.created_at, x.role desc`);
  return rows.map((r) => ({ role: r.role, content: r.content }));
}

/** An answer about to be written, in the state `streaming`. */
export interface AnswerRow {
  chat: Pick<ChatRecord, 'id' | 'companyId'>;
  threadId: string;
  provider: AnswerProvider;
  model: string | null;
  language: Language;
}

/**
 * Stores an answer row in the state `streaming`: for a question already stored (`questionId`), or with a new
 * question in the same statement (both then share their created_at; readers order a question before its answer by
 * role). Returns the ids of both.
 */
export async function insertAnswer(
  db: DbOrTx,
  answer: AnswerRow,
  question: { id: string } | { text: string },
): Promise<{ messageId: string; questionId: string }> {
  const { chat, threadId } = answer;
  const row = (questionId: SQL) => sql`insert into chat_messages
    (company_id, chat_id, thread_id, role, content, status, question_id, provider, model, language)
    select ${chat.companyId}::uuid, ${chat.id}::uuid, ${threadId}::uuid, ${ANSWER}, '', ${STREAMING},
      ${questionId}, ${answer.provider}, ${answer.model}, ${answer.language}`;
  const { rows } = await db.execute<{ id: string; question_id: string }>(
    'id' in question
      ? sql`${row(sql`${question.id}::uuid`)} returning id, question_id`
      : sql`with question as (insert into chat_messages (company_id, chat_id, thread_id, role, content)
          values (${chat.companyId}, ${chat.id}, ${threadId}, ${QUESTION}, ${question.text}) returning id)
        ${row(sql`question.id`)} from question returning id, question_id`,
  );
  return { messageId: rows[0]!.id, questionId: rows[0]!.question_id };
}

/** How an answer ended. */
export interface AnswerEnd {
  text: string;
  status: MessageStatus;
  citations: StoredCitation[];
  noAnswer: boolean;
  errorCode: ErrorCode | null;
  firstTokenMs: number | null;
}

/** Stores how an answer ended; the stored answer (read back by the same statement). */
export async function finishAnswer(db: DbOrTx, messageId: string, end: AnswerEnd): Promise<StoredMessage> {
  const { rows } = await db.execute<MessageRow>(sql`
    update chat_messages m set content = ${end.text}, status = ${end.status},
      citations = ${JSON.stringify(end.citations)}::jsonb, no_answer = ${end.noAnswer}, error_code = ${end.errorCode},
      first_token_ms = ${end.firstTokenMs}, completed_at = now()
    where m.id = ${messageId} returning ${messageColumns}`);
  return toMessage(rows[0]!);
}
