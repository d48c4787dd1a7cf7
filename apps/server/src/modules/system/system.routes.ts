import { systemContracts, toPublicConfig } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute } from '../../http/route.ts';
import { configWithSettings, logoUrl } from '../settings/settings-cache.ts';

export function systemRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, systemContracts.health, async () => ({ status: 'ok' as const }));

  registerRoute(app, systemContracts.ready, async (_req, reply) => {
    const database = await ctx.pool
      .query('select 1')
      .then(() => true)
      .catch(() => false);
    const jobs = database && (await ctx.jobs.isReachable());
    if (database && jobs) return { status: 'ready' as const, database, jobs };
    reply.code(503);
    return { status: 'unavailable' as const, database, jobs };
  });

  // The branding the web needs at start (title, colours, logo, sign-up, default language) follows the settings.
  registerRoute(app, systemContracts.config, async () => {
    const settings = await ctx.settings.current();
    return toPublicConfig(configWithSettings(ctx.config, settings), logoUrl(settings.logo));
  });
}
