import type { BillingOverview, BillingStatus, PlanLimit, Usage } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import { homeCompany } from '../../access/resource-access.ts';
import { subscriptionAccess } from '../../access/subscription.access.ts';
import type { AppContext } from '../../app-context.ts';
import { notFound } from '../../http/app-error.ts';
import type { Actor } from '../auth/actor.ts';
import { companyLimit, currentSubscription, presentSubscription } from './company-plan.ts';
import { listPlans } from './plan-catalogue.ts';

/** The company's plan as every member's banner needs it (whether it ended, whether to prompt for renewal). */
export async function billingStatus(ctx: AppContext, actor: Actor): Promise<BillingStatus> {
  const row = actor.companyId ? await currentSubscription(ctx.db, actor.companyId) : undefined;
  return {
    paymentsEnabled: ctx.config.PAYMENTS_ENABLED,
    subscription: row ? presentSubscription(row) : null,
  };
}

/** What the company uses of each limit. One e-mail setting holds its SMTP details too, so it counts against both. */
async function usedOf(ctx: AppContext, companyId: string): Promise<Record<PlanLimit, number>> {
  const { rows } = await ctx.db.execute<{
    storage: string;
    divisions: number;
    employees: number;
    questions: number;
    mailboxes: number;
  }>(sql`
    select
      (select coalesce(sum(size_bytes), 0) from files where company_id = ${companyId})::bigint as storage,
      (select count(*) from divisions where company_id = ${companyId})::int as divisions,
      (select count(*) from users where company_id = ${companyId} and kind = 'Employee')::int as employees,
      (select count(*) from chat_messages where company_id = ${companyId} and role = 'user'
        and created_at >= date_trunc('month', now()))::int as questions,
      (select count(*) from email_settings where company_id = ${companyId})::int as mailboxes`);
  const r = rows[0]!;
  return {
    storageBytes: Number(r.storage),
    divisions: r.divisions,
    employees: r.employees,
    questionsPerMonth: r.questions,
    smtpSettings: r.mailboxes,
    emailSettings: r.mailboxes,
  };
}

/** The billing tab: the company's plan, its usage against each limit, and the catalogue with what is for sale. */
export async function billingOverview(ctx: AppContext, actor: Actor): Promise<BillingOverview> {
  const companyId = homeCompany(actor);
  if (!subscriptionAccess.can(actor, 'read', { companyId })) throw notFound();
  const row = await currentSubscription(ctx.db, companyId);
  const used = await usedOf(ctx, companyId);
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
