import type Stripe from 'stripe';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';

const clients = new WeakMap<object, Stripe>();

/**
 * The one Stripe client of a configuration (PAYMENTS_ENABLED with STRIPE_SECRET_KEY); STRIPE_API_URL points it at a
 * local test double through the client's own `host`, `port` and `protocol` options. The package is loaded on first use:
 * it is the largest the server has (some 200 modules), and only a server that takes payments needs it.
 */
export async function stripeFor(ctx: AppContext): Promise<Stripe> {
  const { config } = ctx;
  if (!config.PAYMENTS_ENABLED || !config.STRIPE_SECRET_KEY) throw new AppError('PAYMENTS_DISABLED');
  const { default: StripeClient } = await import('stripe');
  let client = clients.get(config);
  if (!client) {
    const api = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null;
    client = new StripeClient(config.STRIPE_SECRET_KEY, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(api
        ? {
            host: api.hostname,
            port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
            protocol: api.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
    clients.set(config, client);
  }
  return client;
}

/** Runs a Stripe call; Stripe's refusals and network failures become PAYMENT_PROVIDER_ERROR (logged). */
export async function callStripe<T>(ctx: AppContext, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    ctx.log.warn({ err: error, what }, 'stripe call failed');
    throw new AppError('PAYMENT_PROVIDER_ERROR');
  }
}
