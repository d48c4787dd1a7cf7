import { z } from 'zod';

/** The longest period the platform figures cover (a year, leap day included). */
export const DASHBOARD_MAX_DAYS = 366;
/** The period the platform figures cover when the request names none, and the presets of the period picker. */
export const DASHBOARD_DEFAULT_DAYS = 30;
export const DASHBOARD_PRESET_DAYS = [7, 30, 90] as const;

const DAY = 86_400_000;

/** The query of the platform figures: days in UTC, both ends inclusive; either may be left out. */
export const dashboardPeriodQuerySchema = z.object({
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});
export type DashboardPeriodQuery = z.infer<typeof dashboardPeriodQuerySchema>;

/** The day (UTC) of a moment, as YYYY-MM-DD. */
export const utcDayOf = (moment: Date | number) => new Date(moment).toISOString().slice(0, 10);
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00.000Z`) / DAY;

/** The number of days from `from` to `to`, both included (0 or less when `from` is after `to`). */
export const periodDays = (from: string, to: string) => dayNumber(to) - dayNumber(from) + 1;

/** The last `days` days up to and including today (UTC). */
export function lastDays(days: number, now = Date.now()): { from: string; to: string } {
  return { from: utcDayOf(now - (days - 1) * DAY), to: utcDayOf(now) };
}

/**
 * The period a request covers: its `from` and `to`, by default the last 30 days up to `to` (or today). Null when
 * `from` is after `to` or the period is longer than `DASHBOARD_MAX_DAYS` (the server answers `PERIOD_INVALID`, the
 * period picker says the same before asking).
 */
export function resolvePeriod(
  query: DashboardPeriodQuery,
  now = Date.now(),
): { from: string; to: string } | null {
  const to = query.to ?? (query.from ? maxDate(query.from, utcDayOf(now)) : utcDayOf(now));
  const from = query.from ?? utcDayOf(Date.parse(`${to}T00:00:00.000Z`) - (DASHBOARD_DEFAULT_DAYS - 1) * DAY);
  const days = periodDays(from, to);
  return days >= 1 && days <= DASHBOARD_MAX_DAYS ? { from, to } : null;
}

const maxDate = (a: string, b: string) => (a > b ? a : b);
