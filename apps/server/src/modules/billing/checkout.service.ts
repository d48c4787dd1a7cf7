import type { Language, PlanKey } from '@werkwissen/shared';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type Stripe from 'stripe';
import { homeCompany } from '../../access/resource-access.ts';
import { subscriptionAccess } from '../../access/subscription.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { subscriptions } from '../../db/schema/index.ts';
import { currentSubscription, hasEnded } from './company-plan.ts';
import { loadPlan, stripePriceId } from './plan-catalogue.ts';
import { callStripe, stripeFor } from './stripe-client.ts';
import { afterApplied } from './stripe-events.ts';
import { applyStripeSubscription } from './stripe-sync.ts';

/** Stripe Checkout's languages among ours; Arabic and Ukrainian pages follow the browser. */
const CHECKOUT_LOCALES: Partial<Record<Language, Stripe.Checkout.SessionCreateParams.Locale>> = {
  de: 'de',
  en: 'en',
  fr: 'fr',
  it: 'it',
  pl: 'pl',
  pt: 'pt',
  ru: 'ru',
};

/** Stripe needs a trial to run at least two more days; a shorter rest of the trial ends with the purchase. */
const MIN_TRIAL_MS = 2 * 86_400_000 + 3_600_000;

function paymentsOn(ctx: AppContext) {
  if (!ctx.config.PAYMENTS_ENABLED) throw new AppError('PAYMENTS_DISABLED');
}

async function stripeCustomer(ctx: AppContext, companyId: string): Promise<string | null> {
  const [row] = await ctx.db
    .select({ customer: subscriptions.stripeCustomerId })
    .from(subscriptions)
    .where(and(eq(subscriptions.companyId, companyId), isNotNull(subscriptions.stripeCustomerId)))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return row?.customer ?? null;
}

const billingPage = (ctx: AppContext) =>
  `${ctx.config.PUBLIC_URL.replace(/\/$/, '')}/account-settings/billing`;

/**
 * Buying or changing a plan. A company without a running Stripe subscription gets a Checkout session (subscription
 * mode, the company as client_reference_id and in the subscription's metadata, the user's language, tax ids and a
 * billing address); the rest of a sign-up trial carries over as Stripe trial, which ends by cancelling when no
 * payment method is left. A running subscription is switched to the new price (prorated) in place.
 */
export async function createCheckout(ctx: AppContext, actor: Actor, plan: PlanKey): Promise<{ url: string }> {
  const companyId = homeCompany(actor);
  subscriptionAccess.assertCan(actor, 'update', { companyId });
  paymentsOn(ctx);
  const price = stripePriceId(ctx, plan);
  const row = await loadPlan(ctx.db, plan);
  if (!price || !row?.intervalMonths) throw new AppError('PLAN_NOT_FOR_SALE');
  const stripe = await stripeFor(ctx);
  const current = await currentSubscription(ctx.db, companyId);
  if (current?.source === 'stripe' && current.stripeSubscriptionId && !hasEnded(current)) {
    const id = current.stripeSubscriptionId;
    const sub = await callStripe(ctx, 'subscriptions.retrieve', () => stripe.subscriptions.retrieve(id));
    const item = sub.items.data[0];
    const updated = await callStripe(ctx, 'subscriptions.update', () =>
      stripe.subscriptions.update(id, {
        items: [{ ...(item ? { id: item.id } : {}), price }],
        cancel_at_period_end: false,
        proration_behavior: 'create_prorations',
        metadata: { companyId, plan },
      }),
    );
    await afterApplied(ctx, await applyStripeSubscription(ctx, updated, new Date()));
    return { url: `${billingPage(ctx)}?changed=1` };
  }
  const customer = await stripeCustomer(ctx, companyId);
  const trialLeft =
    current?.source === 'trial' && current.status === 'trial' ? current.endsAt.getTime() - Date.now() : 0;
  const base = ctx.config.PUBLIC_URL.replace(/\/$/, '');
  const session = await callStripe(ctx, 'checkout.sessions.create', () =>
    stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        client_reference_id: companyId,
        ...(customer ? { customer } : { customer_email: actor.email }),
        line_items: [{ price, quantity: 1 }],
        metadata: { companyId, plan },
        subscription_data: {
          metadata: { companyId, plan },
          ...(trialLeft > MIN_TRIAL_MS
            ? {
                trial_end: Math.floor(current!.endsAt.getTime() / 1000),
                trial_settings: { end_behavior: { missing_payment_method: 'cancel' } },
              }
            : {}),
        },
        locale: CHECKOUT_LOCALES[actor.language] ?? 'auto',
        tax_id_collection: { enabled: true },
        billing_address_collection: 'required',
        ...(customer ? { customer_update: { address: 'auto', name: 'auto' } } : {}),
        success_url: `${base}/checkout?result=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${base}/checkout?result=cancel`,
      },
      { idempotencyKey: `checkout-${companyId}-${plan}-${Math.floor(Date.now() / 60_000)}` },
    ),
  );
  if (!session.url) throw new AppError('PAYMENT_PROVIDER_ERROR');
  return { url: session.url };
}

async function paidSubscription(ctx: AppContext, actor: Actor) {
  const companyId = homeCompany(actor);
  subscriptionAccess.assertCan(actor, 'update', { companyId });
  paymentsOn(ctx);
  const current = await currentSubscription(ctx.db, companyId);
  if (current?.source !== 'stripe' || !current.stripeSubscriptionId || !current.stripeCustomerId) {
    throw new AppError('NO_PAID_SUBSCRIPTION');
  }
  return { companyId, current, customer: current.stripeCustomerId, id: current.stripeSubscriptionId };
}

/** Stripe's customer portal (payment methods, billing details), back to the billing tab. */
export async function createPortal(ctx: AppContext, actor: Actor): Promise<{ url: string }> {
  const { customer } = await paidSubscription(ctx, actor);
  const session = await callStripe(ctx, 'billingPortal.sessions.create', async () =>
    (await stripeFor(ctx)).billingPortal.sessions.create({ customer, return_url: billingPage(ctx) }),
  );
  return { url: session.url };
}

/** Cancels the paid subscription at the end of its period: it stays in force until then; nothing is deleted. */
export async function cancelAtPeriodEnd(ctx: AppContext, actor: Actor): Promise<void> {
  const { id, current } = await paidSubscription(ctx, actor);
  if (hasEnded(current)) throw new AppError('NO_PAID_SUBSCRIPTION');
  const updated = await callStripe(ctx, 'subscriptions.update', async () =>
    (await stripeFor(ctx)).subscriptions.update(id, { cancel_at_period_end: true }),
  );
  await applyStripeSubscription(ctx, updated, new Date());
}
