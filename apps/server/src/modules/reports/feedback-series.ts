import type { FeedbackSeries, Language } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import { feedbackPerDay } from './feedback-report.queries.ts';
import { dayAfter, dayStart, type FeedbackFilter, type ReportScope, reportDays } from './report-scope.ts';
import { questionsPerDay } from './reported-questions.queries.ts';

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
  const [asked, given] = await Promise.all([
    questionsPerDay(ctx.db, scope, filter, { from: dayStart(from), until: dayAfter(to) }),
    feedbackPerDay(ctx.db, scope, { ...filter, from, to }),
  ]);
  const byDay = new Map(given.map((r) => [r.day, r]));
  return {
    items: days.map((date) => {
      const f = byDay.get(date);
      const average = f?.averageRating ?? null;
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
