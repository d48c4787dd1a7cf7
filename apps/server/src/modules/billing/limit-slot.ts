import { type Language, PLAN_KEYS, type PlanKey, type PlanLimit } from '@werkwissen/shared';
import { desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import type { DbOrTx, Tx } from '../../db/database.ts';
import { plans, subscriptions } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { currentSubscription, hasEnded, planLifting } from './company-plan.ts';
import { lockCompanyForSlot, usedOf } from './limit-usage.queries.ts';
import { effectiveLimit, loadPlan } from './plan-catalogue.ts';

const mb = (bytes: number) => Math.max(0, Math.floor(bytes / 1024 / 1024));

/**
 * The refusal of one more of a limited resource: storage is QUOTA_EXCEEDED (what is free of how much, and the plan
 * with more storage through i18next's `context`), every other limit PLAN_LIMIT_REACHED (the limit and the plan that
 * lifts it, named in the language of whoever asked).
 */
export async function limitRefusal(
  ctx: AppContext,
  db: DbOrTx,
  input: { limit: PlanLimit; plan: PlanKey | null; max: number; used: number; language: Language },
): Promise<AppError> {
  const upgrade = await planLifting(ctx, db, input.limit, input.max);
  const name = (key: string) => translate(input.language, key);
  if (input.limit === 'storageBytes') {
    return new AppError('QUOTA_EXCEEDED', {
      freeMb: mb(input.max - input.used),
      limitMb: mb(input.max),
      ...(upgrade ? { context: 'upgrade', upgradePlanName: name(`plans.${upgrade}`) } : {}),
    });
  }
  return new AppError('PLAN_LIMIT_REACHED', {
    limit: input.limit,
    max: input.max,
    plan: input.plan,
    upgradePlan: upgrade,
    limitName: name(`billing.limits.${input.limit}`),
    planName: input.plan ? name(`plans.${input.plan}`) : '',
    upgradePlanName: name(`plans.${upgrade ?? PLAN_KEYS[PLAN_KEYS.length - 1]}`),
  });
}

/**
 * Takes `amount` of a limited resource (a division, an employee, a mailbox, a question, bytes of storage) for a
 * company, inside the transaction `tx` that then creates it. A plan that has ended refuses (PLAN_EXPIRED); a limit
 * in force is checked with the company row locked (`for no key update`: a second slot of the same company waits
 * until this transaction ends, while rows that merely reference the company are written on), so that parallel
 * requests are counted one after another and never pass the limit together. Without a limit nothing is locked or
 * counted. Every query runs on `tx`: the embedded database serves one transaction at a time.
 */
export async function takeLimitSlot(
  ctx: AppContext,
  tx: Tx,
  slot: { companyId: string; limit: PlanLimit; amount?: number; language: Language },
): Promise<void> {
  const row = await currentSubscription(tx, slot.companyId);
  if (row && hasEnded(row)) throw new AppError('PLAN_EXPIRED');
  const max = await effectiveLimit(ctx, row ? await loadPlan(tx, row.plan) : undefined, slot.limit, tx);
  if (max === null) return;
  await lockCompanyForSlot(tx, slot.companyId);
  const used = await usedOf(tx, slot.companyId, slot.limit);
  if (used + (slot.amount ?? 1) <= max) return;
  throw await limitRefusal(ctx, tx, { ...slot, plan: row?.plan ?? null, max, used });
}

/** A company's current subscription and its plan's monthly question cap (null: none), in one statement. */
async function questionPlan(db: DbOrTx, companyId: string) {
  const [found] = await db
    .select({ row: subscriptions, cap: plans.questionsPerMonth })
    .from(subscriptions)
    .leftJoin(plans, eq(plans.key, subscriptions.plan))
    .where(eq(subscriptions.companyId, companyId))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return found ?? null;
}

/**
 * What a question needs of the plan, checked before anything is done for it: the plan has not ended (PLAN_EXPIRED),
 * and when the plan caps questions per month, this month's are below the cap (PLAN_LIMIT_REACHED). The plan and its
 * cap are kept in `ctx.questionState` (a second at most, emptied by this process's writes to subscriptions and
 * plans); whether it has ended is judged now; without a cap nothing is counted. Resolves whether there is a cap: a
 * new question is then stored with its slot taken (`takeLimitSlot`), which reads the plan again in its transaction
 * and decides between parallel questions.
 */
export async function assertMayAsk(ctx: AppContext, companyId: string, language: Language): Promise<boolean> {
  const found = await ctx.questionState.get(`plan\u0000${companyId}`, () => questionPlan(ctx.db, companyId));
  if (!found) return false;
  if (hasEnded(found.row)) throw new AppError('PLAN_EXPIRED');
  if (found.cap === null) return false;
  const used = await usedOf(ctx.db, companyId, 'questionsPerMonth');
  if (used < found.cap) return true;
  const input = { limit: 'questionsPerMonth', plan: found.row.plan, max: found.cap, used, language } as const;
  throw await limitRefusal(ctx, ctx.db, input);
}
