import type { AdminDashboard, Dashboard } from '@werkwissen/shared';
import { count, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { activityLog, companies, emailOutbox, subscriptions, users } from '../../db/schema/index.ts';
import { notFound } from '../../http/app-error.ts';
import type { Actor } from '../auth/actor.ts';

const DAY = 86_400_000;

/** What the server knows of the actor's company: its name, current plan and the next steps to take. */
export async function companyDashboard(ctx: AppContext, actor: Actor): Promise<Dashboard> {
  if (!actor.companyId) throw notFound();
  const [company] = await ctx.db.select().from(companies).where(eq(companies.id, actor.companyId));
  if (!company) throw notFound();
  const [plan] = await ctx.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.companyId, actor.companyId))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  const [user] = await ctx.db.select().from(users).where(eq(users.id, actor.userId));
  const now = Date.now();
  return {
    company: { id: company.id, name: company.name },
    plan: plan
      ? {
          plan: plan.plan,
          status: plan.endsAt.getTime() < now && plan.status === 'active' ? 'expired' : plan.status,
          startsAt: plan.startsAt.toISOString(),
          endsAt: plan.endsAt.toISOString(),
          daysRemaining: Math.max(0, Math.ceil((plan.endsAt.getTime() - now) / DAY)),
          daysTotal: Math.round((plan.endsAt.getTime() - plan.startsAt.getTime()) / DAY),
        }
      : null,
    nextSteps: [
      { step: 'verifyEmail', done: user?.emailVerifiedAt != null },
      { step: 'completeProfile', done: Boolean(company.name && user?.phone && user?.country) },
      // Documents arrive with the knowledge capability; until then none can have been uploaded.
      { step: 'uploadDocuments', done: false },
    ],
  };
}

/** The operator's figures across all companies. */
export async function adminDashboard(ctx: AppContext): Promise<AdminDashboard> {
  const since = new Date(Date.now() - 7 * DAY);
  const [[companyCount], userRows, emailRows, [signIns]] = await Promise.all([
    ctx.db.select({ n: count() }).from(companies),
    ctx.db.select({ kind: users.kind, n: count() }).from(users).groupBy(users.kind),
    ctx.db.select({ status: emailOutbox.status, n: count() }).from(emailOutbox).groupBy(emailOutbox.status),
    ctx.db
      .select({
        ok: sql<number>`count(*) filter (where ${activityLog.statusCode} = 200)`.mapWith(Number),
        failed: sql<number>`count(*) filter (where ${activityLog.statusCode} <> 200)`.mapWith(Number),
      })
      .from(activityLog)
      .where(sql`${activityLog.action} = 'login' and ${activityLog.createdAt} > ${since}`),
  ]);
  return {
    companies: companyCount?.n ?? 0,
    users: Object.fromEntries(userRows.map((r) => [r.kind, r.n])),
    emails: Object.fromEntries(emailRows.map((r) => [r.status, r.n])),
    signInsLast7Days: signIns?.ok ?? 0,
    failedSignInsLast7Days: signIns?.failed ?? 0,
  };
}
