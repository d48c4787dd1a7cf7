import { aiProviderContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import { ownCompany } from '../../access/company.access.ts';
import type { AppContext } from '../../app-context.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { listProviders, removeProvider, saveProvider, testProvider } from './ai-providers.service.ts';

export function aiProviderRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, aiProviderContracts.list, async (req) => ({
    items: await listProviders(ctx, ownCompany(requireActor(req), 'read')),
  }));
  registerRoute(app, aiProviderContracts.save, async (req) =>
    saveProvider(
      ctx,
      ownCompany(requireActor(req), 'update'),
      req.params.provider,
      req.body,
      requestLanguage(req, ctx),
    ),
  );
  registerRoute(app, aiProviderContracts.remove, async (req, reply) => {
    await removeProvider(ctx, ownCompany(requireActor(req), 'update'), req.params.provider);
    return reply.code(204).send();
  });
  registerRoute(app, aiProviderContracts.test, async (req) =>
    testProvider(
      ctx,
      ownCompany(requireActor(req), 'update'),
      req.params.provider,
      req.body,
      requestLanguage(req, ctx),
    ),
  );
}
