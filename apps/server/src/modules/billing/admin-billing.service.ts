import type {
  PaymentDetail,
  PaymentRow,
  Plan,
  PlanKey,
  planAssignmentBodySchema,
  planUpdateBodySchema,
} from '@werkwissen/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { assertPlatformCaller } from '../../access/resource-access.ts';
import { subscriptionAccess } from '../../access/subscription.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { companies, plans, stripeEvents, subscriptions } from '../../db/schema/index.ts';
import { currentSubscription, presentSubscription } from './company-plan.ts';
import { listInvoices } from './invoices.service.ts';
import { listPlans, presentPlan } from './plan-catalogue.ts';
import { currentPaymentsPage } from './subscriptions.queries.ts';

/**
 * Every company's current plan the actor may read, with its Stripe ids and what the company paid; a page. The
 * back office's: a company user is refused (their plan is on the billing tab).
 */
export async function listPayments(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string },
) {
  assertPlatformCaller(actor);
  const page = await currentPaymentsPage(ctx.db, subscriptionAccess.where(actor, 'read', 's'), query);
  const items: PaymentRow[] = page.items.map(({ subscription: s, companyName, paidCents }) => ({
    companyId: s.companyId,
    companyName,
    plan: s.plan,
    status: presentSubscription(s).status,
    source: s.source,
    endsAt: s.endsAt.toISOString(),
    stripeCustomerId: s.stripeCustomerId,
    stripeSubscriptionId: s.stripeSubscriptionId,
    paidCents,
  }));
  return { items, total: page.total, page: query.page, pageSize: query.pageSize };
}

/** One company's plans over time, its Stripe events and invoices (404 unless the actor may read its plan). */
export async function paymentDetail(
  ctx: AppContext,
  actor: Actor,
  companyId: string,
): Promise<PaymentDetail> {
  assertPlatformCaller(actor);
  if (!subscriptionAccess.can(actor, 'read', { companyId })) throw notFound();
  const [company] = await ctx.db.select().from(companies).where(eq(companies.id, companyId));
  if (!company) throw notFound();
  const history = await ctx.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.companyId, companyId), subscriptionAccess.where(actor, 'read')))
    .orderBy(desc(subscriptions.createdAt));
  const events = await ctx.db
    .select()
    .from(stripeEvents)
    .where(eq(stripeEvents.companyId, companyId))
    .orderBy(desc(stripeEvents.receivedAt))
    .limit(500);
  const current = history[0];
  const stripeIds = history.find((h) => h.stripeCustomerId);
  return {
    company: { id: company.id, name: company.name },
    subscription: current ? presentSubscription(current) : null,
    stripeCustomerId: stripeIds?.stripeCustomerId ?? null,
    stripeSubscriptionId: stripeIds?.stripeSubscriptionId ?? null,
    history: history.map((h) => ({
      plan: h.plan,
      status: presentSubscription(h).status,
      source: h.source,
      startsAt: h.startsAt.toISOString(),
      endsAt: h.endsAt.toISOString(),
      createdAt: h.createdAt.toISOString(),
    })),
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      receivedAt: e.receivedAt.toISOString(),
      processedAt: e.processedAt?.toISOString() ?? null,
      stripeObjectId: (e.payload as { data?: { object?: { id?: string } } }).data?.object?.id ?? null,
    })),
    invoices: (await listInvoices(ctx, actor, { page: 1, pageSize: 100, companyId })).items,
  };
}

/**
 * Gives a company a plan by hand until a day (a free plan, or an extended trial): a new current row, `manual`, which
 * stays the company's plan (the newest row) while Stripe events update the older Stripe row in place. A running
 * Stripe subscription is not touched: the operator cancels it in Stripe, or it keeps charging.
 */
export async function assignPlan(
  ctx: AppContext,
  actor: Actor,
  companyId: string,
  input: z.output<typeof planAssignmentBodySchema>,
) {
  assertPlatformCaller(actor);
  if (!subscriptionAccess.can(actor, 'read', { companyId })) throw notFound();
  if (!subscriptionAccess.can(actor, 'manage', { companyId })) throw new AppError('FORBIDDEN');
  const [company] = await ctx.db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!company) throw notFound();
  const before = await currentSubscription(ctx.db, companyId);
  const now = new Date();
  const [row] = await ctx.db
    .insert(subscriptions)
    .values({
      companyId,
      plan: input.plan,
      status: 'active',
      source: 'manual',
      startsAt: now,
      endsAt: new Date(input.endsAt),
    })
    .returning();
  const summary = (s: typeof row) =>
    s ? { plan: s.plan, status: s.status, source: s.source, endsAt: s.endsAt } : null;
  return {
    detail: await paymentDetail(ctx, actor, companyId),
    change: { before: summary(before), after: summary(row) },
  };
}

/** The plan catalogue as the back office edits it (a company reads the plans on its billing tab). */
export async function planCatalogue(ctx: AppContext, actor: Actor): Promise<{ items: Plan[] }> {
  assertPlatformCaller(actor);
  return { items: await listPlans(ctx) };
}

/** Changes a plan's price and limits; every company on it has them at once. */
export async function updatePlan(
  ctx: AppContext,
  actor: Actor,
  key: PlanKey,
  input: z.output<typeof planUpdateBodySchema>,
): Promise<{ plan: Plan; change: { before: unknown; after: unknown } }> {
  assertPlatformCaller(actor);
  const [before] = await ctx.db.select().from(plans).where(eq(plans.key, key));
  if (!before) throw notFound();
  const [row] = await ctx.db
    .update(plans)
    .set({ priceCents: input.priceCents, ...input.limits, updatedAt: new Date() })
    .where(eq(plans.key, key))
    .returning();
  const plan = presentPlan(ctx, row!);
  return { plan, change: { before: presentPlan(ctx, before), after: plan } };
}
