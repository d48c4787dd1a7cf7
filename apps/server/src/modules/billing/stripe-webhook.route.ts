import { billingContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { stripeEvents } from '../../db/schema/index.ts';
import { registerRoute } from '../../http/route.ts';
import { stripeEventJob } from './billing.jobs.ts';
import { stripeFor } from './stripe-client.ts';

/** Stripe's default: a signature older than five minutes is refused (replays of captured requests). */
const TOLERANCE_SECONDS = 300;

/**
 * POST /webhooks/stripe, in a scope of its own whose body parser keeps the raw bytes (the signature is over them,
 * and JSON parsing would change them). The signature is checked before anything else (400, nothing stored); the
 * event is stored by its id, and only a new one is queued for the job: a replay answers 200 and does nothing.
 */
export function stripeWebhookRoute(scope: FastifyInstance, ctx: AppContext): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  registerRoute(scope, billingContracts.stripeWebhook, async (req) => {
    const secret = ctx.config.STRIPE_WEBHOOK_SECRET;
    if (!ctx.config.PAYMENTS_ENABLED || !secret) throw new AppError('PAYMENTS_DISABLED');
    const signature = req.headers['stripe-signature'];
    const raw = req.body as unknown;
    if (typeof signature !== 'string' || !Buffer.isBuffer(raw))
      throw new AppError('WEBHOOK_SIGNATURE_INVALID');
    let event: Stripe.Event;
    try {
      event = (await stripeFor(ctx)).webhooks.constructEvent(raw, signature, secret, TOLERANCE_SECONDS);
    } catch {
      throw new AppError('WEBHOOK_SIGNATURE_INVALID');
    }
    const [stored] = await ctx.db
      .insert(stripeEvents)
      .values({
        id: event.id,
        type: event.type,
        payload: event,
        createdAt: new Date(event.created * 1000),
      })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (stored) await ctx.jobs.send(stripeEventJob, { eventId: event.id }, { singletonKey: event.id });
    return { received: true as const };
  });
}
