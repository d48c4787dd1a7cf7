import type { BillingOverview, BillingStatus, PlanLimit, Usage } from '@werkwissen/shared';
import { homeCompany } from '../../access/resource-access.ts';
import { subscriptionAccess } from '../../access/subscription.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';
import { companyLimit, currentSubscription, presentSubscription } from './company-plan.ts';
import { usedOfAll } from './limit-usage.queries.ts';
import { listPlans } from './plan-catalogue.ts';

/** The company's plan as every member's banner needs it (whether it ended, whether to prompt for renewal). */
export async function billingStatus(ctx: AppContext, actor: Actor): Promise<BillingStatus> {
  const row = actor.companyId ? await currentSubscription(ctx.db, actor.companyId) : undefined;
  return {
    paymentsEnabled: ctx.config.PAYMENTS_ENABLED,
    subscription: row ? presentSubscription(row) : null,
  };
}

/** The billing tab: the company's plan, its usage against each limit, and the catalogue with what is for sale. */
export async function billingOverview(ctx: AppContext, actor: Actor): Promise<BillingOverview> {
  const companyId = homeCompany(actor);
  if (!subscriptionAccess.can(actor, 'read', { companyId })) throw notFound();
  const row = await currentSubscription(ctx.db, companyId);
  const used = await usedOfAll(ctx.db, companyId);
  const usage: Usage[] = [];
  for (const [limit, value] of Object.entries(used) as [PlanLimit, number][]) {
    const { max } = await companyLimit(ctx, companyId, limit);
    if (limit === 'questionsPerMonth' && max === null) continue;
    usage.push({ limit, used: value, max });
  }
  return {
    paymentsEnabled: ctx.config.PAYMENTS_ENABLED,
    subscription: row ? presentSubscription(row) : null,
    usage,
    plans: await listPlans(ctx),
  };
}
