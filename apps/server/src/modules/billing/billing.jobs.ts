import { and, eq, isNull, lt } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { stripeEvents, subscriptions } from '../../db/schema/index.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import { notifyCompany } from './billing-mails.ts';
import { hasEnded } from './company-plan.ts';
import { callStripe, stripeFor } from './stripe-client.ts';
import { afterApplied, processStripeEvent } from './stripe-events.ts';
import { applyStripeSubscription } from './stripe-sync.ts';
import { currentUnexpiredSubscriptions } from './subscriptions.queries.ts';

/** One stored Stripe event, processed once (the webhook queues it with the event id as singleton key). */
export const stripeEventJob = defineJob({
  name: 'billing.stripe-event',
  schema: z.object({ eventId: z.string().min(1).max(255) }),
  retryLimit: 8,
  retryDelaySeconds: 10,
  expireInSeconds: 120,
  async handler({ eventId }, ctx) {
    await processStripeEvent(ctx, eventId);
  },
});

/** Days before a trial's end when its notice goes out (Stripe sends trial_will_end three days before, too). */
const TRIAL_NOTICE_DAYS = 3;

/**
 * Every current plan once more: Stripe subscriptions that have not ended are fetched fresh (a webhook can be lost),
 * trials near their end get their notice, and plans past their end (trial, by hand, cancelled) become `expired`
 * with the expiry mail. Nothing is deleted.
 */
export async function reviewPlans(ctx: AppContext, now = new Date()): Promise<void> {
  // Events stored but never queued (the process stopped in between) are queued again.
  const waiting = await ctx.db
    .select({ id: stripeEvents.id })
    .from(stripeEvents)
    .where(
      and(isNull(stripeEvents.processedAt), lt(stripeEvents.receivedAt, new Date(now.getTime() - 600_000))),
    );
  for (const { id } of waiting) await ctx.jobs.send(stripeEventJob, { eventId: id }, { singletonKey: id });
  const rows = await currentUnexpiredSubscriptions(ctx.db);
  for (const row of rows) {
    if (row.source === 'stripe' && row.stripeSubscriptionId && ctx.config.PAYMENTS_ENABLED) {
      const id = row.stripeSubscriptionId;
      try {
        const sub = await callStripe(ctx, 'subscriptions.retrieve', async () =>
          (await stripeFor(ctx)).subscriptions.retrieve(id),
        );
        await afterApplied(ctx, await applyStripeSubscription(ctx, sub, now));
      } catch (error) {
        ctx.log.warn({ err: error, subscription: id }, 'nightly stripe re-sync failed');
      }
      continue;
    }
    if (hasEnded(row, now)) {
      await ctx.db
        .update(subscriptions)
        .set({ status: 'expired', updatedAt: now })
        .where(eq(subscriptions.id, row.id));
      await notifyCompany(ctx, row.id, 'planExpired', 'planExpired');
      continue;
    }
    const days = Math.ceil((row.endsAt.getTime() - now.getTime()) / 86_400_000);
    if (row.status === 'trial' && days <= TRIAL_NOTICE_DAYS) {
      await notifyCompany(ctx, row.id, 'trialEnding', 'trialEnding', { days: String(days) });
    }
  }
}

/** Nightly: see reviewPlans. */
export const reviewPlansJob = defineJob({
  name: 'billing.review-plans',
  schema: z.object({}),
  cron: '41 2 * * *',
  retryLimit: 3,
  retryDelaySeconds: 300,
  expireInSeconds: 30 * 60,
  async handler(_data, ctx) {
    await reviewPlans(ctx);
  },
});
