import { aiProviderContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { requireCompany } from '../auth/actor.ts';
import { listProviders, removeProvider, saveProvider, testProvider } from './ai-providers.service.ts';

export function aiProviderRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, aiProviderContracts.list, async (req) => ({
    items: await listProviders(ctx, requireCompany(requireActor(req))),
  }));
  registerRoute(app, aiProviderContracts.save, async (req) =>
    saveProvider(
      ctx,
      requireCompany(requireActor(req)),
      req.params.provider,
      req.body,
      requestLanguage(req, ctx),
    ),
  );
  registerRoute(app, aiProviderContracts.remove, async (req, reply) => {
    await removeProvider(ctx, requireCompany(requireActor(req)), req.params.provider);
    return reply.code(204).send();
  });
  registerRoute(app, aiProviderContracts.test, async (req) =>
    testProvider(
      ctx,
      requireCompany(requireActor(req)),
      req.params.provider,
      req.body,
      requestLanguage(req, ctx),
    ),
  );
}
