import type { SearchHit, SearchMode } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import type { EvidenceSearch } from '../chat/evidence-order.ts';
import { translateQuestion, translationDeps } from './query-translation/translate-question.ts';
import { scopeOf } from './search-scope.ts';

export interface SearchQuery {
  q: string;
  divisionId?: string;
  limit: number;
  mode: SearchMode;
}

/**
 * The search's best passages in what the actor may read (one division of theirs, or all), ordered by the evidence in
 * their sentences and rows as a chat question's are (`search`, handed in by the composition root: search does not
 * import the answerer). A question in another language than the documents is looked for in translation too.
 */
export async function searchKnowledge(
  ctx: AppContext,
  actor: Actor,
  search: EvidenceSearch,
  query: SearchQuery,
): Promise<SearchHit[]> {
  const scope = await scopeOf(ctx, actor, query.divisionId);
  const translations = await translateQuestion(translationDeps(ctx), scope, query.q);
  return search(ctx.db, ctx.embedder, scope, query.q, {
    limit: query.limit,
    mode: query.mode,
    exactScanMax: ctx.config.VECTOR_EXACT_SCAN_MAX,
    translations,
  });
}
