import type { PlanKey, SubscriptionStatus } from '@werkwissen/shared';
import { desc, eq, or } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { AppContext } from '../../app-context.ts';
import { invoices, subscriptions } from '../../db/schema/index.ts';
import { currentSubscription, type SubscriptionRow } from './company-plan.ts';
import { planOfPrice } from './plan-catalogue.ts';

/**
 * Stripe's subscription status in the product's lifecycle. Cancelled at the period end is `cancelled` until Stripe
 * ends it; an ended subscription (cancelled, unpaid, never paid) is `expired`.
 */
export function lifecycleStatus(sub: Stripe.Subscription): SubscriptionStatus {
  switch (sub.status) {
    case 'trialing':
      return sub.cancel_at_period_end ? 'cancelled' : 'trial';
    case 'active':
      return sub.cancel_at_period_end ? 'cancelled' : 'active';
    case 'past_due':
    case 'incomplete':
      return 'past_due';
    default:
      return 'expired';
  }
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

const at = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

/** The company a Stripe subscription belongs to: its metadata, else the row that already holds it or its customer. */
async function companyOf(ctx: AppContext, sub: Stripe.Subscription, hint?: string | null) {
  if (sub.metadata?.companyId) return sub.metadata.companyId;
  if (hint) return hint;
  const customer = idOf(sub.customer);
  const [row] = await ctx.db
    .select({ companyId: subscriptions.companyId })
    .from(subscriptions)
    .where(
      or(
        eq(subscriptions.stripeSubscriptionId, sub.id),
        customer ? eq(subscriptions.stripeCustomerId, customer) : undefined,
      ),
    )
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return row?.companyId ?? null;
}

export interface Applied {
  row: SubscriptionRow;
  before: SubscriptionRow | undefined;
}

/**
 * Writes a subscription as Stripe holds it now into the company's plan: the row of that Stripe subscription is
 * updated in place (or inserted, becoming the current plan). A state older than the one applied last is ignored.
 */
export async function applyStripeSubscription(
  ctx: AppContext,
  sub: Stripe.Subscription,
  eventAt: Date,
  hint?: string | null,
): Promise<Applied | null> {
  const companyId = await companyOf(ctx, sub, hint);
  if (!companyId) {
    ctx.log.warn({ subscription: sub.id }, 'stripe subscription of no known company');
    return null;
  }
  const item = sub.items?.data?.[0];
  const plan: PlanKey | null =
    planOfPrice(ctx, item?.price?.id) ?? (sub.metadata?.plan as PlanKey | undefined) ?? null;
  const endsAt = at(sub.status === 'trialing' ? sub.trial_end : item?.current_period_end) ?? at(sub.ended_at);
  const startsAt = at(item?.current_period_start) ?? at(sub.start_date) ?? new Date();
  const values = {
    status: lifecycleStatus(sub),
    source: 'stripe' as const,
    startsAt,
    endsAt: endsAt ?? new Date(),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    stripeCustomerId: idOf(sub.customer),
    stripeSubscriptionId: sub.id,
    lastEventAt: eventAt,
    updatedAt: new Date(),
  };
  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.stripeSubscriptionId, sub.id))
      .for('update');
    if (existing?.lastEventAt && existing.lastEventAt.getTime() > eventAt.getTime()) return null;
    if (existing) {
      const [row] = await tx
        .update(subscriptions)
        .set({ ...values, ...(plan ? { plan } : {}) })
        .where(eq(subscriptions.id, existing.id))
        .returning();
      return { row: row!, before: existing };
    }
    const before = await currentSubscription(tx, companyId);
    const [row] = await tx
      .insert(subscriptions)
      .values({ companyId, plan: plan ?? before?.plan ?? 'monthly', ...values })
      .returning();
    return { row: row!, before };
  });
}

/** The Stripe subscription an invoice is for (API versions since 2025 name it under `parent`). */
export function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription ?? null);
}

/** Stores an invoice as Stripe holds it now (number, totals, status), for the company of its subscription. */
export async function applyStripeInvoice(ctx: AppContext, invoice: Stripe.Invoice) {
  const subscriptionId = invoiceSubscriptionId(invoice);
  const metadataCompany = invoice.parent?.subscription_details?.metadata?.companyId;
  let companyId = metadataCompany ?? null;
  let plan: PlanKey | null = planOfPrice(
    ctx,
    idOf(invoice.lines?.data?.[0]?.pricing?.price_details?.price) ?? undefined,
  );
  if (subscriptionId) {
    const [row] = await ctx.db
      .select({ companyId: subscriptions.companyId, plan: subscriptions.plan })
      .from(subscriptions)
      .where(eq(subscriptions.stripeSubscriptionId, subscriptionId));
    companyId ??= row?.companyId ?? null;
    plan ??= row?.plan ?? null;
  }
  if (!companyId) {
    ctx.log.warn({ invoice: invoice.id }, 'stripe invoice of no known company');
    return null;
  }
  const address = invoice.customer_address;
  const values = {
    companyId,
    stripeSubscriptionId: subscriptionId,
    number: invoice.number ?? null,
    plan,
    currency: invoice.currency,
    totalCents: invoice.total,
    paidCents: invoice.amount_paid,
    status: (invoice.status ?? 'draft') as (typeof invoices.$inferInsert)['status'],
    issuedAt: at(invoice.status_transitions?.finalized_at) ?? at(invoice.created) ?? new Date(),
    periodStart: at(invoice.period_start),
    periodEnd: at(invoice.period_end),
    customerName: invoice.customer_name ?? null,
    customerAddress: address
      ? [
          address.line1,
          address.line2,
          [address.postal_code, address.city].filter(Boolean).join(' '),
          address.country,
        ]
          .filter(Boolean)
          .join('\n')
      : null,
    updatedAt: new Date(),
  };
  const [row] = await ctx.db
    .insert(invoices)
    .values({ stripeInvoiceId: invoice.id!, ...values })
    .onConflictDoUpdate({ target: invoices.stripeInvoiceId, set: values })
    .returning();
  return row!;
}
