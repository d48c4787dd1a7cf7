import type { Language, ReportFilter } from '@werkwissen/shared';
import type { SQL } from 'drizzle-orm';
import { feedbackAccess, reportedQuestionAccess } from '../../access/feedback.access.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { translate } from '../../i18n/translator.ts';

export const DAY = 86_400_000;

/** Whose feedback and questions a report covers, and whether its items name their company. */
export interface ReportScope {
  /** What the reader's rules let through, on the `feedback` table. */
  feedback: SQL;
  /** What the reader's rules let through, on chat messages `m` (joined to their thread `t` and its user `u`). */
  questions: SQL;
  /** The one company the report covers, if narrowed to one. */
  companyId?: string;
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
    feedback: feedbackAccess.where(actor, 'read'),
    questions: reportedQuestionAccess.where(actor, 'read', 'm'),
    companyId,
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
