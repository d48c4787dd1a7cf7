import type { AdminDashboard, Dashboard, DashboardPeriodQuery } from '@werkwissen/shared';
import { and, count, desc, eq } from 'drizzle-orm';
import { companyAccess } from '../../access/company.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';
import { companies, emailOutbox, subscriptions, users } from '../../db/schema/index.ts';
import { presentSubscription } from '../billing/company-plan.ts';
import { feedbackSeries } from '../reports/feedback-series.ts';
import { knowledgeGaps } from '../reports/knowledge-gaps.ts';
import { reportScope, utcDay } from '../reports/report-scope.ts';
import { salesFigures } from '../sales-documents/sales-figures.ts';
import { chatCounts, companyHasFiles, signInCounts } from './dashboard-figures.queries.ts';
import { platformFigures } from './platform-figures.service.ts';

const DAY = 86_400_000;

/**
 * The company's chat figures: ready files, questions this week (the last 7 days) and the 7 days before, the share
 * of this week's answers that found a relevant passage, the likes among likes and dislikes of the last 30 days, the
 * per-day series of those 30 days and the five biggest knowledge gaps of the same 30 days.
 */
async function chatFigures(ctx: AppContext, actor: Actor, companyId: string): Promise<Dashboard['chat']> {
  const now = Date.now();
  // The series and gaps are the feedback reports' own, as far as the actor may read them.
  const scope = reportScope(actor, companyId);
  const period = { from: utcDay(now - 29 * DAY), to: utcDay(now) };
  const [figures, series, gaps] = await Promise.all([
    chatCounts(ctx.db, companyId, {
      weekAgo: new Date(now - 7 * DAY),
      twoWeeksAgo: new Date(now - 14 * DAY),
      monthAgo: new Date(now - 30 * DAY),
    }),
    feedbackSeries(ctx, scope, period, actor.language),
    knowledgeGaps(ctx, scope, period, 5),
  ]);
  const judged = figures.likes + figures.dislikes;
  return {
    filesReady: figures.filesReady,
    questionsThisWeek: figures.thisWeek,
    questionsLastWeek: figures.lastWeek,
    answeredShare: figures.answers > 0 ? figures.answered / figures.answers : null,
    satisfaction: judged > 0 ? figures.likes / judged : null,
    series: series.items.map(({ date, questions, likes, dislikes }) => ({
      date,
      questions,
      likes,
      dislikes,
    })),
    gaps,
  };
}

/** What the server knows of the actor's company (if they may read it): its name, current plan and next steps. */
export async function companyDashboard(ctx: AppContext, actor: Actor): Promise<Dashboard> {
  if (!actor.companyId) throw notFound();
  const [company] = await ctx.db
    .select()
    .from(companies)
    .where(and(eq(companies.id, actor.companyId), companyAccess.where(actor, 'read')));
  if (!company) throw notFound();
  const [plan] = await ctx.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.companyId, actor.companyId))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  const [user] = await ctx.db.select().from(users).where(eq(users.id, actor.userId));
  const chat = await chatFigures(ctx, actor, actor.companyId);
  const now = Date.now();
  return {
    company: { id: company.id, name: company.name },
    plan: plan
      ? {
          plan: plan.plan,
          status: presentSubscription(plan, new Date(now)).status,
          startsAt: plan.startsAt.toISOString(),
          endsAt: plan.endsAt.toISOString(),
          daysRemaining: Math.max(0, Math.ceil((plan.endsAt.getTime() - now) / DAY)),
          daysTotal: Math.round((plan.endsAt.getTime() - plan.startsAt.getTime()) / DAY),
        }
      : null,
    nextSteps: [
      { step: 'verifyEmail', done: user?.emailVerifiedAt != null },
      { step: 'completeProfile', done: Boolean(company.name && user?.phone && user?.country) },
      { step: 'uploadDocuments', done: await companyHasFiles(ctx.db, actor.companyId) },
    ],
    chat,
    sales: await salesFigures(ctx, actor),
  };
}

/** The operator's figures across all companies: today's counters and the platform's figures over the period. */
export async function adminDashboard(
  ctx: AppContext,
  actor: Actor,
  period: DashboardPeriodQuery,
): Promise<AdminDashboard> {
  // Reads the activity log: this process's entries still waiting for their batch belong in the answer.
  await ctx.activity.flush();
  const since = new Date(Date.now() - 7 * DAY);
  // First, so that an invalid period is refused before anything else is read.
  const figures = await platformFigures(ctx, actor, period);
  const [[companyCount], userRows, emailRows, signIns] = await Promise.all([
    ctx.db.select({ n: count() }).from(companies),
    ctx.db.select({ kind: users.kind, n: count() }).from(users).groupBy(users.kind),
    ctx.db.select({ status: emailOutbox.status, n: count() }).from(emailOutbox).groupBy(emailOutbox.status),
    signInCounts(ctx.db, since),
  ]);
  return {
    companies: companyCount?.n ?? 0,
    users: Object.fromEntries(userRows.map((r) => [r.kind, r.n])),
    emails: Object.fromEntries(emailRows.map((r) => [r.status, r.n])),
    signInsLast7Days: signIns.ok,
    failedSignInsLast7Days: signIns.failed,
    figures,
  };
}
