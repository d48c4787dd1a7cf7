import type { SettingsValues } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import { budgetedMailUsage, companyOnTrial, lockMailBudget } from './mail-budget.queries.ts';

/** What a company may send: per hour and per day, the trial's smaller budget while it has no paid plan. */
export interface MailBudget {
  trial: boolean;
  perHour: number;
  perDay: number;
}

/**
 * The budget of a company: a trial (no plan yet, or a plan without a paid interval) gets the trial's numbers of the
 * system settings' "Mail limits" tab, every other plan the regular ones.
 */
export async function mailBudgetOf(ctx: AppContext, db: DbOrTx, companyId: string): Promise<MailBudget> {
  return budgetFor(await companyOnTrial(db, companyId), (await ctx.settings.current(db)).mailBudget);
}

export function budgetFor(trial: boolean, limits: SettingsValues['mailBudget']): MailBudget {
  return trial
    ? { trial, perHour: limits.trialPerHour, perDay: limits.trialPerDay }
    : { trial, perHour: limits.perHour, perDay: limits.perDay };
}

/** Where the company stands: how many more mails fit now, and when none does, which window is full and for how long. */
export interface BudgetRoom {
  budget: MailBudget;
  room: number;
  full: { scope: 'hour' | 'day'; max: number; seconds: number } | null;
}

async function roomOf(ctx: AppContext, db: DbOrTx, companyId: string): Promise<BudgetRoom> {
  const [budget, used] = await Promise.all([
    mailBudgetOf(ctx, db, companyId),
    budgetedMailUsage(db, companyId),
  ]);
  const room = Math.max(0, Math.min(budget.perHour - used.hour, budget.perDay - used.day));
  const full =
    room > 0
      ? null
      : used.day >= budget.perDay
        ? { scope: 'day' as const, max: budget.perDay, seconds: used.dayWait }
        : { scope: 'hour' as const, max: budget.perHour, seconds: used.hourWait };
  return { budget, room, full };
}

/** MAIL_BUDGET_EXCEEDED (429 with Retry-After): the message names the full window, its number and the wait. */
function refusal({ budget, full }: BudgetRoom): AppError {
  const { scope, max, seconds } = full!;
  return new AppError(
    'MAIL_BUDGET_EXCEEDED',
    {
      scope,
      max,
      seconds,
      ...(scope === 'day' ? { context: 'day' } : {}),
      minutes: Math.ceil(seconds / 60),
      hours: Math.ceil(seconds / 3600),
      trial: budget.trial,
    },
    { 'retry-after': String(seconds) },
  );
}

/**
 * Takes one mail of the company's budget, inside the transaction that writes the mail to the outbox: under a
 * transaction-scoped advisory lock per company, the company's budgeted mails of the last hour and day are counted
 * (this transaction's own included) and the mail is refused when either window is full. The lock is held until the
 * mail's row commits, so parallel requests, and several API processes on one database, never send more than the
 * budget between them. Every mail a company causes passes here (`writeToOutbox` with `budgeted`, document mails).
 */
export async function takeMailBudget(ctx: AppContext, tx: DbOrTx, companyId: string): Promise<void> {
  await lockMailBudget(tx, companyId);
  const room = await roomOf(ctx, tx, companyId);
  if (room.room < 1) throw refusal(room);
}

/**
 * How many mails fit now, holding the company's budget lock until the caller's transaction ends (for a batch that
 * sends only what fits, e.g. the invitations that waited for a confirmed address).
 */
export async function lockedBudgetRoom(ctx: AppContext, tx: DbOrTx, companyId: string): Promise<BudgetRoom> {
  await lockMailBudget(tx, companyId);
  return roomOf(ctx, tx, companyId);
}

/**
 * The same refusal before expensive work (rendering a document's PDF) without holding anything: `takeMailBudget`
 * still decides when the mail is written.
 */
export async function assertMailBudget(ctx: AppContext, companyId: string): Promise<void> {
  const room = await roomOf(ctx, ctx.db, companyId);
  if (room.room < 1) throw refusal(room);
}
