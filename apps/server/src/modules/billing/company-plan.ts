import {
  type Language,
  type PlanKey,
  type PlanLimit,
  RENEWAL_PROMPT_DAYS,
  type Subscription,
} from '@werkwissen/shared';
import { desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import { plans, subscriptions } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { effectiveLimit, limitsOf, loadPlan } from './plan-catalogue.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
const DAY = 86_400_000;

/** The company's current plan: the newest row. */
export async function currentSubscription(
  db: DbOrTx,
  companyId: string,
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.companyId, companyId))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return row;
}

/**
 * Whether a plan has ended: Stripe said so (`expired`), or a plan that Stripe does not renew (the trial, one assigned
 * by hand, one cancelled at its period end) is past its end. A Stripe subscription past its period waits for Stripe.
 */
export function hasEnded(row: SubscriptionRow, now = new Date()): boolean {
  if (row.status === 'expired') return true;
  const renewsItself = row.source === 'stripe' && (row.status === 'active' || row.status === 'past_due');
  return !renewsItself && row.endsAt.getTime() <= now.getTime();
}

export function presentSubscription(row: SubscriptionRow, now = new Date()): Subscription {
  const ended = hasEnded(row, now);
  const daysRemaining = Math.max(0, Math.ceil((row.endsAt.getTime() - now.getTime()) / DAY));
  const renews = row.source === 'stripe' && row.status === 'active' && !row.cancelAtPeriodEnd;
  return {
    plan: row.plan,
    status: ended ? 'expired' : row.status,
    source: row.source,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    daysRemaining,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    renewalDue: ended || row.status === 'past_due' || (!renews && daysRemaining <= RENEWAL_PROMPT_DAYS),
    ended,
  };
}

/**
 * Refuses what needs a plan in force once the company's has ended (PLAN_EXPIRED): reading, export and paying stay
 * open. Whatever a plan limits checks this with its slot (`takeLimitSlot`); this is for the rest (document mails) and
 * for refusing an upload before its body is read.
 */
export async function assertPlanActive(
  ctx: AppContext,
  companyId: string,
  db: DbOrTx = ctx.db,
): Promise<void> {
  const row = await currentSubscription(db, companyId);
  if (row && hasEnded(row)) throw new AppError('PLAN_EXPIRED');
}

/** A limit of the company's current plan in force (see plan-catalogue's effectiveLimit). */
export async function companyLimit(
  ctx: AppContext,
  companyId: string,
  limit: PlanLimit,
  db: DbOrTx = ctx.db,
): Promise<{ plan: PlanKey | null; max: number | null }> {
  const row = await currentSubscription(db, companyId);
  const plan = row ? await loadPlan(db, row.plan) : undefined;
  return { plan: row?.plan ?? null, max: await effectiveLimit(ctx, plan, limit, db) };
}

/** The cheapest plan (in catalogue order) whose limit is higher than `max`: the one that lifts it. */
export async function planLifting(
  ctx: AppContext,
  db: DbOrTx,
  limit: PlanLimit,
  max: number,
): Promise<PlanKey | null> {
  const rows = await db.select().from(plans).orderBy(plans.sortOrder);
  for (const row of rows) {
    if (row.intervalMonths === null) continue;
    const value = limitsOf(row)[limit] ?? (await effectiveLimit(ctx, row, limit, db));
    if (value === null || value > max) return row.key;
  }
  return null;
}

/**
 * The message variables that name the plan lifting a limit of the company's (i18next's `context` picks the message
 * that names it), or none when no plan lifts it.
 */
export async function upgradeVars(
  ctx: AppContext,
  companyId: string,
  limit: PlanLimit,
  language: Language,
): Promise<Record<string, string>> {
  const { max } = await companyLimit(ctx, companyId, limit);
  const upgrade = max === null ? null : await planLifting(ctx, ctx.db, limit, max);
  return upgrade ? { context: 'upgrade', upgradePlanName: translate(language, `plans.${upgrade}`) } : {};
}
