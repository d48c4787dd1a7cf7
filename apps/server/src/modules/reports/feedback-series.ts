import type { FeedbackSeries, Language } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { feedback } from '../../db/schema/index.ts';
import {
  dayAfter,
  dayStart,
  type FeedbackFilter,
  feedbackWhere,
  messageScope,
  type ReportScope,
  reportDays,
} from './report-scope.ts';

const utcDate = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/**
 * Questions and feedback per day (UTC) over the filter's days (default the last 30), every day listed, also those
 * with nothing. Questions are the users' messages in scope (company, origin, division of the chat); likes,
 * dislikes, the feedback count and the average rating come from the feedback given that day, with every filter.
 */
export async function feedbackSeries(
  ctx: AppContext,
  scope: ReportScope,
  filter: FeedbackFilter,
  language: Language,
): Promise<FeedbackSeries> {
  const { from, to, days } = reportDays(filter, language);
  if (days.length === 0) return { items: [] };
  const [questions, given] = await Promise.all([
    ctx.db.execute<{ day: string; n: number }>(sql`
      select to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n
      from chat_messages m
      join chat_threads t on t.id = m.thread_id
      left join users u on u.id = t.user_id
      where m.role = 'user' and m.created_at >= ${dayStart(from).toISOString()}::timestamptz
        and m.created_at < ${dayAfter(to).toISOString()}::timestamptz and ${messageScope(scope, filter)}
      group by 1`),
    ctx.db
      .select({
        day: utcDate(feedback.createdAt),
        likes: sql<number>`count(*) filter (where ${feedback.liked} = true)`.mapWith(Number),
        dislikes: sql<number>`count(*) filter (where ${feedback.liked} = false)`.mapWith(Number),
        feedback: sql<number>`count(*)`.mapWith(Number),
        averageRating: sql<number | null>`avg(${feedback.rating})::float8`,
      })
      .from(feedback)
      .where(feedbackWhere(scope, { ...filter, from, to }))
      .groupBy(utcDate(feedback.createdAt)),
  ]);
  const asked = new Map(questions.rows.map((r) => [r.day, Number(r.n)]));
  const byDay = new Map(given.map((r) => [r.day, r]));
  return {
    items: days.map((date) => {
      const f = byDay.get(date);
      const average =
        f?.averageRating === null || f?.averageRating === undefined ? null : Number(f.averageRating);
      return {
        date,
        questions: asked.get(date) ?? 0,
        likes: f?.likes ?? 0,
        dislikes: f?.dislikes ?? 0,
        feedback: f?.feedback ?? 0,
        averageRating: average === null ? null : Math.round(average * 100) / 100,
      };
    }),
  };
}
