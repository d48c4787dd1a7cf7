import { searchContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { searchPassages } from './hybrid-search.ts';
import { translateQuestion, translationDeps } from './query-translation/translate-question.ts';
import { scopeOf } from './search-scope.ts';

export function searchRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, searchContracts.search, async (req) => {
    const scope = await scopeOf(ctx, requireActor(req), req.query.divisionId);
    const translations = await translateQuestion(translationDeps(ctx), scope, req.query.q);
    const items = await searchPassages(ctx.db, ctx.embedder, scope, req.query.q, {
      limit: req.query.limit,
      mode: req.query.mode,
      exactScanMax: ctx.config.VECTOR_EXACT_SCAN_MAX,
      translations,
    });
    return { items };
  });
}
