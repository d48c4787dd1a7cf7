import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { registerErrorHandler } from '../http/error-handler.ts';
import { registerRequestGuard } from '../http/request-guard.ts';
import type { Metrics } from './metrics.ts';

/**
 * `GET /metrics` in Prometheus's text format. It is guarded like every route: `metricsToken` asks for
 * `Authorization: Bearer <METRICS_TOKEN>` (not a session or an API key: a scraper is no user); `public` only on
 * the separate listener without a token.
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  metrics: Metrics,
  permission: 'metricsToken' | 'public',
): void {
  // Not part of the JSON API: left out of the OpenAPI document.
  const options = { config: { permission }, logLevel: 'warn' as const, schema: { hide: true } };
  app.get('/metrics', options, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}

/**
 * The separate listener of METRICS_PORT (on METRICS_HOST, loopback unless set): only `/metrics`, in every role, so
 * that worker processes, which have no API, are scraped too. It still asks for METRICS_TOKEN when that is set.
 */
export async function startMetricsListener(
  ctx: AppContext,
  metrics: Metrics,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ loggerInstance: ctx.log }) as unknown as FastifyInstance;
  // Without a token the listener itself is the protection (loopback unless METRICS_HOST says otherwise).
  if (ctx.config.METRICS_TOKEN) registerRequestGuard(app, ctx);
  registerErrorHandler(app, ctx);
  registerMetricsRoute(app, metrics, ctx.config.METRICS_TOKEN ? 'metricsToken' : 'public');
  await app.listen({ port: ctx.config.METRICS_PORT ?? 0, host: ctx.config.METRICS_HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : ctx.config.METRICS_PORT;
  const host = ctx.config.METRICS_HOST.includes(':')
    ? `[${ctx.config.METRICS_HOST}]`
    : ctx.config.METRICS_HOST;
  return { url: `http://${host}:${port}/metrics`, close: () => app.close() };
}
