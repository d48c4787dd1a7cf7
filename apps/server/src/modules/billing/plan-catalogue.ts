import type { Plan, PlanKey, PlanLimit, PlanLimits } from '@werkwissen/shared';
import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { DbOrTx } from '../../db/database.ts';
import { plans } from '../../db/schema/index.ts';

type PlanRow = typeof plans.$inferSelect;

/** The Stripe price of each plan sold through Stripe, from the configuration; a plan without one is assigned only. */
export function stripePriceId(ctx: AppContext, plan: PlanKey): string | undefined {
  const c = ctx.config;
  const ids: Partial<Record<PlanKey, string | undefined>> = {
    monthly: c.STRIPE_MONTHLY_PRICE_ID,
    halfYearly: c.STRIPE_SIX_MONTH_PRICE_ID,
    handwerkPro: c.STRIPE_HANDWERK_PRO_PRICE_ID,
    handwerkEnterprise: c.STRIPE_HANDWERK_ENTERPRISE_PRICE_ID,
  };
  return ids[plan];
}

/** The plan whose Stripe price this is (what a subscription from Stripe is on). */
export function planOfPrice(ctx: AppContext, priceId: string | undefined): PlanKey | null {
  if (!priceId) return null;
  for (const key of ['monthly', 'halfYearly', 'handwerkPro', 'handwerkEnterprise'] as const) {
    if (stripePriceId(ctx, key) === priceId) return key;
  }
  return null;
}

export const limitsOf = (row: PlanRow): PlanLimits => ({
  storageBytes: row.storageBytes,
  divisions: row.divisions,
  employees: row.employees,
  smtpSettings: row.smtpSettings,
  emailSettings: row.emailSettings,
  questionsPerMonth: row.questionsPerMonth,
});

export function presentPlan(ctx: AppContext, row: PlanRow): Plan {
  return {
    key: row.key,
    intervalMonths: row.intervalMonths,
    priceCents: row.priceCents,
    currency: row.currency,
    forSale: Boolean(ctx.config.PAYMENTS_ENABLED && row.intervalMonths && stripePriceId(ctx, row.key)),
    limits: limitsOf(row),
  };
}

export async function listPlans(ctx: AppContext, db: DbOrTx = ctx.db): Promise<Plan[]> {
  const rows = await db.select().from(plans).orderBy(asc(plans.sortOrder));
  return rows.map((row) => presentPlan(ctx, row));
}

export async function loadPlan(db: DbOrTx, key: PlanKey): Promise<PlanRow | undefined> {
  const [row] = await db.select().from(plans).where(eq(plans.key, key));
  return row;
}

/**
 * A plan's limit in force: the catalogue's, or for divisions, employees and storage where the catalogue says
 * nothing the system settings' (the trials' limits by default); null is no limit.
 */
export async function effectiveLimit(
  ctx: AppContext,
  row: PlanRow | undefined,
  limit: PlanLimit,
  db?: DbOrTx,
): Promise<number | null> {
  const own = row ? limitsOf(row)[limit] : null;
  if (own !== null) return own;
  const settings = (await ctx.settings.current(db)).plans;
  if (limit === 'divisions') return settings.divisionsLimit;
  if (limit === 'employees') return settings.employeesLimit;
  if (limit === 'storageBytes') return settings.storageLimitMb * 1024 * 1024;
  return null;
}
