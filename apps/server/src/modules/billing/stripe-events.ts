import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { AppContext } from '../../app-context.ts';
import { stripeEvents } from '../../db/schema/index.ts';
import { notifyCompany } from './billing-mails.ts';
import { callStripe, stripeFor } from './stripe-client.ts';
import {
  type Applied,
  applyStripeInvoice,
  applyStripeSubscription,
  invoiceSubscriptionId,
} from './stripe-sync.ts';

/** The events the product acts on; others are stored and marked processed. */
export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

/** Failed attempts after which Stripe's retries (Smart Retries default) give up: that notice is the final one. */
const FINAL_ATTEMPT = 3;

/** Mails the expiry notice when an applied state has just ended the plan. */
export async function afterApplied(ctx: AppContext, applied: Applied | null): Promise<void> {
  if (applied?.row.status !== 'expired' || applied.before?.status === 'expired') return;
  await notifyCompany(ctx, applied.row.id, 'planExpired', 'planExpired');
}

async function syncSubscription(ctx: AppContext, id: string, eventAt: Date, hint?: string | null) {
  const sub = await callStripe(ctx, 'subscriptions.retrieve', async () =>
    (await stripeFor(ctx)).subscriptions.retrieve(id),
  );
  const applied = await applyStripeSubscription(ctx, sub, eventAt, hint);
  await afterApplied(ctx, applied);
  return applied;
}

/**
 * Processes one stored event once: the subscription or invoice it names is fetched fresh from Stripe (the payload
 * is not trusted for state), written into the company's plan and invoices, and the lifecycle mails go out.
 */
export async function processStripeEvent(ctx: AppContext, eventId: string): Promise<void> {
  const [stored] = await ctx.db.select().from(stripeEvents).where(eq(stripeEvents.id, eventId));
  if (!stored || stored.processedAt) return;
  const event = stored.payload as Stripe.Event;
  const eventAt = stored.createdAt;
  const object = event.data.object as unknown as { id: string };
  let companyId: string | null = null;
  if (event.type === 'checkout.session.completed') {
    const session = object as unknown as Stripe.Checkout.Session;
    const subscription =
      typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
    if (subscription) {
      companyId =
        (await syncSubscription(ctx, subscription, eventAt, session.client_reference_id))?.row.companyId ??
        null;
    }
  } else if (event.type.startsWith('customer.subscription.')) {
    const applied = await syncSubscription(ctx, object.id, eventAt);
    companyId = applied?.row.companyId ?? null;
    if (applied && event.type === 'customer.subscription.trial_will_end') {
      const days = Math.max(0, Math.ceil((applied.row.endsAt.getTime() - Date.now()) / 86_400_000));
      await notifyCompany(ctx, applied.row.id, 'trialEnding', 'trialEnding', { days: String(days) });
    }
  } else if (event.type.startsWith('invoice.')) {
    const invoice = await callStripe(ctx, 'invoices.retrieve', async () =>
      (await stripeFor(ctx)).invoices.retrieve(object.id),
    );
    const subscriptionId = invoiceSubscriptionId(invoice);
    const applied = subscriptionId ? await syncSubscription(ctx, subscriptionId, eventAt) : null;
    const row = await applyStripeInvoice(ctx, invoice);
    companyId = row?.companyId ?? applied?.row.companyId ?? null;
    if (applied && event.type === 'invoice.payment_failed') {
      // Which attempt failed is the event's own fact (the fresh invoice may already be on a later one).
      const failed = object as unknown as Stripe.Invoice;
      const attempt = failed.attempt_count ?? invoice.attempt_count ?? 1;
      const final = attempt >= FINAL_ATTEMPT || !failed.next_payment_attempt;
      await notifyCompany(
        ctx,
        applied.row.id,
        final ? 'paymentFinalNotice' : 'paymentFailed',
        `paymentFailed:${invoice.id}:${final ? 'final' : attempt}`,
        { attempt: String(attempt) },
      );
    }
  }
  await ctx.db
    .update(stripeEvents)
    .set({ processedAt: new Date(), ...(companyId ? { companyId } : {}) })
    .where(eq(stripeEvents.id, eventId));
}
