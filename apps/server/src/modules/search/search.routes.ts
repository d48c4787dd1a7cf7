import { searchContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import type { EvidenceSearch } from '../chat/evidence-order.ts';
import { translateQuestion, translationDeps } from './query-translation/translate-question.ts';
import { scopeOf } from './search-scope.ts';

/**
 * `search`: the search's best passages ordered by the evidence in their sentences and rows, as a chat question's are
 * (`evidenceSearch`, handed in by the composition root: search does not import the answerer).
 */
export function searchRoutes(app: FastifyInstance, ctx: AppContext, search: EvidenceSearch): void {
  registerRoute(app, searchContracts.search, async (req) => {
    const scope = await scopeOf(ctx, requireActor(req), req.query.divisionId);
    const translations = await translateQuestion(translationDeps(ctx), scope, req.query.q);
    const items = await search(ctx.db, ctx.embedder, scope, req.query.q, {
      limit: req.query.limit,
      mode: req.query.mode,
      exactScanMax: ctx.config.VECTOR_EXACT_SCAN_MAX,
      translations,
    });
    return { items };
  });
}
