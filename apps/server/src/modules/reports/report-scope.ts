import type { Language, ReportFilter } from '@werkwissen/shared';
import { and, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import { feedbackAccess, questionOrigin, reportedQuestionAccess } from '../../access/feedback.access.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { containsPattern } from '../../db/like.ts';
import { feedback } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';

export const DAY = 86_400_000;

/** Whose feedback and questions a report covers, and whether its items name their company. */
export interface ReportScope {
  /** A condition on the `feedback` table. */
  feedback: SQL;
  /** A condition on chat messages `m` (joined to their thread `t` and its user `u`). */
  questions: SQL;
  crossCompany: boolean;
}

/**
 * What the actor's Feedback rules let them read, optionally narrowed to one company: a company user never gets
 * beyond their own (naming another company is not found); a reader of no company (the operator, or a staff member
 * granted `read Feedback`) reads across companies, and the items name them.
 */
export function reportScope(actor: Actor, companyId?: string): ReportScope {
  if (companyId && actor.companyId && companyId !== actor.companyId) throw notFound();
  return {
    feedback: sql`(${feedbackAccess.where(actor, 'read')} ${companyId ? sql`and ${feedback.companyId} = ${companyId}` : sql``})`,
    questions: sql`(${reportedQuestionAccess.where(actor, 'read', 'm')} ${companyId ? sql`and m.company_id = ${companyId}` : sql``})`,
    crossCompany: actor.companyId === null,
  };
}

/** The day (UTC) of a moment, as YYYY-MM-DD. */
export const utcDay = (moment: Date | number) => new Date(moment).toISOString().slice(0, 10);
/** The first moment of a day (UTC). */
export const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
/** The first moment after a day (UTC): `to` dates are inclusive. */
export const dayAfter = (day: string) => new Date(dayStart(day).getTime() + DAY);

export type FeedbackFilter = Partial<ReportFilter> & { q?: string };

/** The report filters on the feedback table (dates are days in UTC, both ends inclusive). */
export function feedbackWhere(scope: ReportScope, filter: FeedbackFilter): SQL | undefined {
  const like = filter.q ? containsPattern(filter.q) : undefined;
  return and(
    scope.feedback,
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

/**
 * The report filters that apply to chat messages `m` (questions or answers) of thread `t` and user `u`: company,
 * origin and division (a chat over that division). `from`/`to` are left to the caller, which knows which message's
 * time counts.
 */
export function messageScope(scope: ReportScope, filter: Pick<FeedbackFilter, 'divisionId' | 'origin'>): SQL {
  const parts: SQL[] = [scope.questions];
  if (filter.origin) parts.push(sql`${questionOrigin} = ${filter.origin}`);
  if (filter.divisionId) {
    parts.push(
      sql`exists (select 1 from chat_divisions cd where cd.chat_id = m.chat_id and cd.division_id = ${filter.divisionId})`,
    );
  }
  return sql.join(parts, sql` and `);
}

/** The longest period a per-day report covers. */
export const MAX_REPORT_DAYS = 731;

/**
 * The days a per-day report covers: the filter's `from` and `to` (inclusive), by default the 30 days up to today.
 * A period longer than two years is refused (VALIDATION_FAILED on `from`); `from` after `to` covers no day.
 */
export function reportDays(filter: { from?: string; to?: string }, language: Language, now = Date.now()) {
  const to = filter.to ?? utcDay(now);
  const from = filter.from ?? utcDay(dayStart(to).getTime() - 29 * DAY);
  const count = Math.round((dayStart(to).getTime() - dayStart(from).getTime()) / DAY) + 1;
  if (count > MAX_REPORT_DAYS) {
    throw new AppError('VALIDATION_FAILED', {
      in: 'querystring',
      fields: [
        { field: 'from', code: 'validation.invalid', message: translate(language, 'validation.invalid') },
      ],
    });
  }
  const days: string[] = [];
  for (let i = 0; i < count; i++) days.push(utcDay(dayStart(from).getTime() + i * DAY));
  return { from, to, days };
}
