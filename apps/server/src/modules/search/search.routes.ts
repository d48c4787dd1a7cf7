import { searchContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import type { EvidenceSearch } from '../chat/evidence-order.ts';
import { searchKnowledge } from './search.service.ts';

/** `search`: the search's best passages ordered by the evidence in their sentences and rows (search.service.ts). */
export function searchRoutes(app: FastifyInstance, ctx: AppContext, search: EvidenceSearch): void {
  registerRoute(app, searchContracts.search, async (req) => ({
    items: await searchKnowledge(ctx, requireActor(req), search, req.query),
  }));
}
