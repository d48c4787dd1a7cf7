import {
  DASHBOARD_MAX_DAYS,
  type DashboardPeriodQuery,
  type PlatformFigures,
  resolvePeriod,
} from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { dailyFigures, type FigureScope, periodCounts, weeklyFigures } from './platform-figures.queries.ts';

const DAY = 86_400_000;

const sum = <T>(items: T[], pick: (item: T) => number) => items.reduce((s, item) => s + pick(item), 0);

/**
 * The platform's figures over a period (default the last 30 days): per day and per week, zero-filled, computed in
 * SQL over every company, or over the caller's own company when they belong to one (company isolation holds for
 * figures too). A period whose start is after its end or that is longer than a year is `PERIOD_INVALID`.
 */
export async function platformFigures(
  ctx: AppContext,
  actor: Actor,
  query: DashboardPeriodQuery,
  now = Date.now(),
): Promise<PlatformFigures> {
  const period = resolvePeriod(query, now);
  if (!period) throw new AppError('PERIOD_INVALID', { maxDays: DASHBOARD_MAX_DAYS });
  const scope: FigureScope = {
    ...period,
    start: `${period.from}T00:00:00.000Z`,
    end: new Date(Date.parse(`${period.to}T00:00:00.000Z`) + DAY).toISOString(),
    companyId: actor.companyId,
  };
  const [daily, weekly, counts] = await Promise.all([
    dailyFigures(ctx.db, scope),
    weeklyFigures(ctx.db, scope),
    periodCounts(ctx.db, scope),
  ]);
  const last = weekly.at(-1);
  const answers = sum(daily, (d) => d.answers);
  const answered = sum(daily, (d) => d.answered);
  const likes = sum(daily, (d) => d.likes);
  const dislikes = sum(daily, (d) => d.dislikes);
  return {
    period,
    totals: {
      companies: counts.companies,
      newCompanies: sum(weekly, (w) => w.newCompanies),
      signUps: sum(weekly, (w) => w.signUps),
      activeUsers: counts.activeUsers,
      files: last?.files ?? 0,
      storageBytes: last?.storageBytes ?? 0,
      filesAdded: sum(weekly, (w) => w.filesAdded),
      bytesAdded: sum(weekly, (w) => w.bytesAdded),
      questions: sum(daily, (d) => d.questions),
      answers,
      answered,
      answeredShare: answers > 0 ? answered / answers : null,
      likes,
      dislikes,
      satisfaction: likes + dislikes > 0 ? likes / (likes + dislikes) : null,
      failedFiles: sum(daily, (d) => d.failedFiles),
    },
    daily,
    weekly,
  };
}
