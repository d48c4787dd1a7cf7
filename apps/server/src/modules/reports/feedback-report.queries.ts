import type { FeedbackReportItem } from '@werkwissen/shared';
import { and, asc, count, desc, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import { chatMessages, companies, type FeedbackCitation, feedback, tags } from '../../db/schema/index.ts';
import { dayAfter, dayStart, type FeedbackFilter, type ReportScope } from './report-scope.ts';

/** A feedback as the reports show it, with its company's and tag's names and its divisions' names. */
export type ReportRow = Omit<
  FeedbackReportItem,
  'createdAt' | 'updatedAt' | 'citations' | 'companyName' | 'divisions'
> & {
  companyName: string | null;
  divisions: string[] | null;
  citations: FeedbackCitation[];
  createdAt: Date;
  updatedAt: Date;
};

/** The report filters on the feedback table (dates are days in UTC, both ends inclusive). */
export function feedbackWhere(scope: ReportScope, filter: FeedbackFilter): SQL | undefined {
  const like = filter.q ? containsPattern(filter.q) : undefined;
  return and(
    scope.feedback,
    scope.companyId ? eq(feedback.companyId, scope.companyId) : undefined,
    filter.from ? gte(feedback.createdAt, dayStart(filter.from)) : undefined,
    filter.to ? lt(feedback.createdAt, dayAfter(filter.to)) : undefined,
    filter.divisionId ? sql`${filter.divisionId}::uuid = any(${feedback.divisionIds})` : undefined,
    filter.origin ? eq(feedback.origin, filter.origin) : undefined,
    filter.rating ? eq(feedback.rating, filter.rating) : undefined,
    filter.mood ? eq(feedback.mood, filter.mood) : undefined,
    filter.tagId ? eq(feedback.tagId, filter.tagId) : undefined,
    filter.liked ? eq(feedback.liked, filter.liked === 'true') : undefined,
    like
      ? or(ilike(feedback.question, like), ilike(feedback.answer, like), ilike(feedback.comment, like))
      : undefined,
  );
}

// Qualified: inside a subquery an interpolated column would render unqualified.
const divisionNames = sql<string[]>`coalesce((select array_agg(d.name order by lower(d.name))
  from divisions d where d.id = any("feedback"."division_ids")), '{}'::text[])`;

const reportColumns = {
  id: feedback.id,
  companyId: feedback.companyId,
  companyName: companies.name,
  origin: feedback.origin,
  givenBy: feedback.givenBy,
  chatId: feedback.chatId,
  chatName: feedback.chatName,
  divisions: divisionNames,
  question: feedback.question,
  answer: feedback.answer,
  noAnswer: feedback.noAnswer,
  liked: feedback.liked,
  mood: feedback.mood,
  rating: feedback.rating,
  comment: feedback.comment,
  tagId: feedback.tagId,
  tagName: tags.name,
  citations: feedback.citations,
  createdAt: feedback.createdAt,
  updatedAt: feedback.updatedAt,
};

const SORTABLE = {
  createdAt: feedback.createdAt,
  updatedAt: feedback.updatedAt,
  rating: feedback.rating,
  origin: feedback.origin,
  givenBy: feedback.givenBy,
  chatName: feedback.chatName,
  question: feedback.question,
  liked: feedback.liked,
  mood: feedback.mood,
};

/** The sort of the list: `createdAt`, `-rating`, ...; newest first unless told, unknown keys fall back to that. */
function orderOf(sort: string | undefined) {
  const key = sort?.replace(/^-/, '') as keyof typeof SORTABLE | undefined;
  const column = key ? SORTABLE[key] : undefined;
  if (!column) return desc(feedback.createdAt);
  return sort!.startsWith('-') ? desc(column) : asc(column);
}

function reportQuery(db: DbOrTx) {
  return db
    .select(reportColumns)
    .from(feedback)
    .innerJoin(companies, eq(companies.id, feedback.companyId))
    .leftJoin(tags, eq(tags.id, feedback.tagId));
}

/** One page of the feedback in scope that matches the filter, in the order of `sort`. */
export async function feedbackReportPage(
  db: DbOrTx,
  scope: ReportScope,
  query: FeedbackFilter & { page: number; pageSize: number; sort?: string },
): Promise<{ items: ReportRow[]; total: number }> {
  const where = feedbackWhere(scope, query);
  const [items, [total]] = await Promise.all([
    reportQuery(db)
      .where(where)
      .orderBy(orderOf(query.sort), desc(feedback.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(feedback).where(where),
  ]);
  return { items: items as ReportRow[], total: total?.n ?? 0 };
}

/** One feedback in scope. */
export async function feedbackReportById(
  db: DbOrTx,
  scope: ReportScope,
  feedbackId: string,
): Promise<ReportRow | undefined> {
  const [row] = await reportQuery(db).where(and(eq(feedback.id, feedbackId), feedbackWhere(scope, {})));
  return row as ReportRow | undefined;
}

/** Every feedback in scope that matches the filter, newest first. */
export async function allFeedbackReportRows(
  db: DbOrTx,
  scope: ReportScope,
  filter: FeedbackFilter,
): Promise<ReportRow[]> {
  return (await reportQuery(db)
    .where(feedbackWhere(scope, filter))
    .orderBy(desc(feedback.createdAt), desc(feedback.id))) as ReportRow[];
}

/** The feedback of one day (UTC, YYYY-MM-DD). */
export interface FeedbackDay {
  day: string;
  likes: number;
  dislikes: number;
  feedback: number;
  averageRating: number | null;
}

const utcDate = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** Likes, dislikes, how much feedback and its average rating, per day (UTC) with any, of the feedback that matches. */
export async function feedbackPerDay(
  db: DbOrTx,
  scope: ReportScope,
  filter: FeedbackFilter,
): Promise<FeedbackDay[]> {
  const rows = await db
    .select({
      day: utcDate(feedback.createdAt),
      likes: sql<number>`count(*) filter (where ${feedback.liked} = true)`.mapWith(Number),
      dislikes: sql<number>`count(*) filter (where ${feedback.liked} = false)`.mapWith(Number),
      feedback: sql<number>`count(*)`.mapWith(Number),
      averageRating: sql<number | null>`avg(${feedback.rating})::float8`,
    })
    .from(feedback)
    .where(feedbackWhere(scope, filter))
    .groupBy(utcDate(feedback.createdAt));
  return rows.map((r) => ({
    ...r,
    averageRating: r.averageRating === null ? null : Number(r.averageRating),
  }));
}

/** A feedback that marks a question as a knowledge gap. */
export interface GapFeedback {
  id: string;
  messageId: string | null;
  companyId: string;
  question: string;
  askedAt: Date;
  noAnswer: boolean;
  negative: boolean;
  divisionIds: string[];
}

const NEGATIVE_MOOD: NonNullable<FeedbackReportItem['mood']> = 'negative';
const ratedAnswer = alias(chatMessages, 'rated_answer');
const askedQuestion = alias(chatMessages, 'asked_question');

/**
 * Up to `limit` of the newest feedback in scope, matching the filter, on a question that found no answer or that was
 * negative (a dislike, the negative mood, or a rating of 2 or less).
 */
export async function gapFeedback(
  db: DbOrTx,
  scope: ReportScope,
  filter: FeedbackFilter,
  limit: number,
): Promise<GapFeedback[]> {
  const negative = sql<boolean>`coalesce(${feedback.liked} = false or ${feedback.mood} = ${NEGATIVE_MOOD}
    or ${feedback.rating} <= 2, false)`;
  const rows = await db
    .select({
      id: feedback.id,
      messageId: feedback.messageId,
      companyId: feedback.companyId,
      question: feedback.question,
      // When the question was asked, while the chat still holds it; else when the feedback was given.
      askedAt: sql<Date>`coalesce(${askedQuestion.createdAt}, ${feedback.createdAt})`.mapWith(
        (v) => new Date(v),
      ),
      noAnswer: feedback.noAnswer,
      negative,
      divisionIds: feedback.divisionIds,
    })
    .from(feedback)
    .leftJoin(ratedAnswer, eq(ratedAnswer.id, feedback.messageId))
    .leftJoin(askedQuestion, eq(askedQuestion.id, ratedAnswer.questionId))
    .where(
      and(
        feedbackWhere(scope, filter),
        sql`(${negative} or ${feedback.noAnswer})`,
        sql`${feedback.question} <> ''`,
      ),
    )
    .orderBy(desc(feedback.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, negative: Boolean(r.negative) }));
}
