import { tagContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { createTag, deleteTag, listTags, updateTag } from './tags.service.ts';

export function tagRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, tagContracts.list, async (req) => listTags(ctx, requireActor(req)));
  registerRoute(app, tagContracts.create, async (req, reply) => {
    const tag = await createTag(ctx, requireActor(req), req.body);
    reply.code(201);
    return tag;
  });
  registerRoute(app, tagContracts.update, async (req) =>
    updateTag(ctx, requireActor(req), req.params.tagId, req.body),
  );
  registerRoute(app, tagContracts.remove, async (req, reply) => {
    await deleteTag(ctx, requireActor(req), req.params.tagId);
    reply.code(204);
    return undefined;
  });
}
