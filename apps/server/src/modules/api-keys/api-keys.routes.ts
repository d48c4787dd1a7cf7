import { apiKeyContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.ts';

export function apiKeyRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, apiKeyContracts.list, async (req) => listApiKeys(ctx, requireActor(req), req.query));

  registerRoute(app, apiKeyContracts.create, async (req, reply) => {
    const created = await createApiKey(ctx, requireActor(req), req.body.name, req.body.expiresInDays);
    reply.code(201);
    return created;
  });

  registerRoute(app, apiKeyContracts.revoke, async (req, reply) => {
    await revokeApiKey(ctx, requireActor(req), req.params.apiKeyId);
    reply.code(204);
    return undefined;
  });
}
