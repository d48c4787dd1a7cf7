import {
  type Language,
  PLAN_KEYS,
  type PlanKey,
  type PlanLimit,
  RENEWAL_PROMPT_DAYS,
  type Subscription,
} from '@werkwissen/shared';
import { desc, eq, sql } from 'drizzle-orm';
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

/**
 * What a question needs of the plan, in one statement: the plan has not ended (PLAN_EXPIRED), and when the plan caps
 * questions per month, this month's questions of the company are below the cap (PLAN_LIMIT_REACHED, naming the plan
 * that lifts it). Without a cap nothing is counted.
 */
export async function assertMayAsk(ctx: AppContext, companyId: string, language: Language): Promise<void> {
  const [found] = await ctx.db
    .select({ row: subscriptions, cap: plans.questionsPerMonth })
    .from(subscriptions)
    .leftJoin(plans, eq(plans.key, subscriptions.plan))
    .where(eq(subscriptions.companyId, companyId))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  if (!found) return;
  if (hasEnded(found.row)) throw new AppError('PLAN_EXPIRED');
  if (found.cap === null) return;
  const { rows } = await ctx.db.execute<{ used: number }>(sql`
    select count(*)::int as used from chat_messages
    where company_id = ${companyId} and role = 'user' and created_at >= date_trunc('month', now())`);
  await assertWithinLimit(ctx, { companyId, limit: 'questionsPerMonth', used: rows[0]!.used, language });
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
