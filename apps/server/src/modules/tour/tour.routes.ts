import { tourContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { getTour, updateTour } from './tour.service.ts';

export function tourRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, tourContracts.get, (req) => getTour(ctx, requireActor(req)));
  registerRoute(app, tourContracts.update, (req) => updateTour(ctx, requireActor(req), req.body));
}
