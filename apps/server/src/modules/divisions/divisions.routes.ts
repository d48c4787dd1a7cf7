import { divisionContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { createDivision, deleteDivision, listDivisions, renameDivision } from './divisions.service.ts';

export function divisionRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, divisionContracts.list, async (req) => listDivisions(ctx, requireActor(req)));
  registerRoute(app, divisionContracts.create, async (req, reply) => {
    const division = await createDivision(ctx, requireActor(req), req.body.name);
    reply.code(201);
    return division;
  });
  registerRoute(app, divisionContracts.rename, async (req) =>
    renameDivision(ctx, requireActor(req), req.params.divisionId, req.body.name),
  );
  registerRoute(app, divisionContracts.remove, async (req, reply) => {
    await deleteDivision(ctx, requireActor(req), req.params.divisionId);
    reply.code(204);
    return undefined;
  });
}
