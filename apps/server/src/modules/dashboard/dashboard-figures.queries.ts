import type { MessageStatus } from '@werkwissen/shared';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { activityLog, type files } from '../../db/schema/index.ts';
import type { StoredMessage } from '../chat/chat-messages.queries.ts';

const QUESTION = 'user' satisfies StoredMessage['role'];
const ANSWER = 'assistant' satisfies StoredMessage['role'];
const STREAMING: MessageStatus = 'streaming';
const READY: (typeof files.$inferSelect)['status'] = 'ready';
const LOGIN = 'login';

/** A company's chat counts over the last weeks. */
export interface ChatCounts {
  filesReady: number;
  /** Questions since `weekAgo`, and from `twoWeeksAgo` up to `weekAgo`. */
  thisWeek: number;
  lastWeek: number;
  /** Finished answers since `weekAgo`, and those of them that found a relevant passage. */
  answers: number;
  answered: number;
  /** Likes and dislikes given since `monthAgo`. */
  likes: number;
  dislikes: number;
}

/** A company's ready files, questions and answers of the last two weeks and likes of the last month (one statement). */
export async function chatCounts(
  db: DbOrTx,
  companyId: string,
  since: { weekAgo: Date; twoWeeksAgo: Date; monthAgo: Date },
): Promise<ChatCounts> {
  const weekAgo = since.weekAgo.toISOString();
  const twoWeeksAgo = since.twoWeeksAgo.toISOString();
  const monthAgo = since.monthAgo.toISOString();
  const { rows } = await db.execute<Record<keyof ChatCounts, number | string>>(sql`select
      (select count(*)::int from files where company_id = ${companyId} and status = ${READY}) as "filesReady",
      (select count(*)::int from chat_messages where company_id = ${companyId} and role = ${QUESTION}
        and created_at > ${weekAgo}::timestamptz) as "thisWeek",
      (select count(*)::int from chat_messages where company_id = ${companyId} and role = ${QUESTION}
        and created_at > ${twoWeeksAgo}::timestamptz and created_at <= ${weekAgo}::timestamptz) as "lastWeek",
      (select count(*)::int from chat_messages where company_id = ${companyId} and role = ${ANSWER}
        and status <> ${STREAMING} and created_at > ${weekAgo}::timestamptz) as answers,
      (select count(*)::int from chat_messages where company_id = ${companyId} and role = ${ANSWER}
        and status <> ${STREAMING} and not no_answer and created_at > ${weekAgo}::timestamptz) as answered,
      (select count(*)::int from feedback where company_id = ${companyId} and liked = true
        and created_at > ${monthAgo}::timestamptz) as likes,
      (select count(*)::int from feedback where company_id = ${companyId} and liked = false
        and created_at > ${monthAgo}::timestamptz) as dislikes`);
  const r = rows[0]!;
  return {
    filesReady: Number(r.filesReady),
    thisWeek: Number(r.thisWeek),
    lastWeek: Number(r.lastWeek),
    answers: Number(r.answers),
    answered: Number(r.answered),
    likes: Number(r.likes),
    dislikes: Number(r.dislikes),
  };
}

/** Whether the company has uploaded any document (whatever became of it). */
export async function companyHasFiles(db: DbOrTx, companyId: string): Promise<boolean> {
  const { rows } = await db.execute(sql`select 1 from files where company_id = ${companyId} limit 1`);
  return rows.length > 0;
}

/** The sign-ins since a moment, successful and failed. */
export async function signInCounts(db: DbOrTx, since: Date): Promise<{ ok: number; failed: number }> {
  const [counts] = await db
    .select({
      ok: sql<number>`count(*) filter (where ${activityLog.statusCode} = 200)`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${activityLog.statusCode} <> 200)`.mapWith(Number),
    })
    .from(activityLog)
    .where(and(eq(activityLog.action, LOGIN), gt(activityLog.createdAt, since)));
  return { ok: counts?.ok ?? 0, failed: counts?.failed ?? 0 };
}
