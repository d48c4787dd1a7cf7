import {
  type Language,
  PLAN_KEYS,
  type PlanKey,
  type PlanLimit,
  RENEWAL_PROMPT_DAYS,
  type Subscription,
} from '@werkwissen/shared';
import { desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { DbOrTx } from '../../db/database.ts';
import { plans, subscriptions } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
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

/** Refuses uploads and questions of a company whose plan has ended (reading, export and paying stay open). */
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
async function planLifting(
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
 * Refuses one more of a limited resource once the plan's limit is reached (PLAN_LIMIT_REACHED): the message names
 * the limit and the plan that lifts it, in the language of whoever asked.
 */
export async function assertWithinLimit(
  ctx: AppContext,
  input: { companyId: string; limit: PlanLimit; used: number; adding?: number; language: Language },
  db: DbOrTx = ctx.db,
): Promise<void> {
  const { plan, max } = await companyLimit(ctx, input.companyId, input.limit, db);
  if (max === null || input.used + (input.adding ?? 1) <= max) return;
  const upgrade = await planLifting(ctx, db, input.limit, max);
  const name = (key: string) => translate(input.language, key);
  throw new AppError('PLAN_LIMIT_REACHED', {
    limit: input.limit,
    max,
    plan,
    upgradePlan: upgrade,
    limitName: name(`billing.limits.${input.limit}`),
    planName: plan ? name(`plans.${plan}`) : '',
    upgradePlanName: name(`plans.${upgrade ?? PLAN_KEYS[PLAN_KEYS.length - 1]}`),
  });
}
