import type { SearchHit } from '@werkwissen/shared';
import type { DbOrTx } from '../../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { type SearchOptions, searchPassages } from '../search/hybrid-search.ts';
import type { QueryTranslation } from '../search/query-translation/translation.ts';
import type { SearchScope } from '../search/search-scope.ts';
import { scoreUnits } from './builtin-answerer.ts';
import { questionLanguage } from './question-language.ts';
import { wordRarity } from './word-rarity.ts';

/**
 * How many of the search's best passages are read again for evidence before the asked number is returned. Measured
 * with bench:answer on the Handwerk set: the passage that answers is often within the first 20 but not first.
 */
export const EVIDENCE_POOL = 20;
/** The search's own score (over the best one's) beside a passage's best unit score (about 0 to 1.5). */
const SEARCH_SHARE = 0.5;

/**
 * The hits reordered by the evidence in their sentences and rows: a passage ranks by the search's score plus the
 * score of its best answer unit as the built-in answerer judges it (`scoreUnits`: one sentence or row that holds the
 * question's rare words together, with an answer of the asked kind, a row keyed by the asked item or code). Word
 * scores rank a passage by the words it holds anywhere; a long passage that mentions every word once beats a
 * short row that answers. Each hit keeps the search's own score: the answerer weighs a passage by it beside its units'
 * scores, and counting the unit scores twice let a passage from deep in the pool answer questions the documents do
 * not answer (bench:answer, Handwerk: German unanswerable answered 0.067 with the new scores, 0.033 with the search's).
 */
export function orderByEvidence(
  question: string,
  hits: SearchHit[],
  translations: QueryTranslation[],
  rarity: Map<string, number>,
): SearchHit[] {
  if (hits.length <= 1) return hits;
  const scored = scoreUnits(
    question,
    hits,
    questionLanguage(question, 'de'),
    undefined,
    translations,
    rarity,
  );
  const best = hits.map(() => 0);
  for (const unit of scored) best[unit.hit] = Math.max(best[unit.hit]!, unit.score);
  const top = Math.max(...hits.map((h) => h.score)) || 1;
  return hits
    .map((hit, i) => ({ hit, score: SEARCH_SHARE * (hit.score / top) + best[i]!, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((o) => o.hit);
}

/**
 * The passages a question is answered from: the search's best EVIDENCE_POOL (at least `options.limit`), ordered by
 * their evidence (`orderByEvidence`), the first `options.limit` of them. `rarity`: the question's words' rarity in the
 * company (`wordRarity`), which the answerer weighs them by too: the chat reads it once for both, beside the search
 * (it may be given while it is still being read). The search route
 * (given this by the composition root, `build-app.ts`: search does not import the answerer) and the answer benchmark
 * search this way too, the rarity read here (`evidenceSearch`).
 */
export async function searchByEvidence(
  db: DbOrTx,
  embedder: Embedder,
  scope: SearchScope,
  query: string,
  options: SearchOptions,
  rarity: Map<string, number> | Promise<Map<string, number>>,
): Promise<SearchHit[]> {
  const [hits, rare] = await Promise.all([
    searchPassages(db, embedder, scope, query, { ...options, limit: Math.max(options.limit, EVIDENCE_POOL) }),
    rarity,
  ]);
  return orderByEvidence(query, hits, options.translations ?? [], rare).slice(0, options.limit);
}

/** `searchByEvidence` with the question's word rarity read beside it: a search without an answer to weigh. */
export async function evidenceSearch(
  db: DbOrTx,
  embedder: Embedder,
  scope: SearchScope,
  query: string,
  options: SearchOptions,
): Promise<SearchHit[]> {
  const rarity = wordRarity(db, scope, query.match(/[\p{L}\p{N}]+/gu) ?? []);
  return searchByEvidence(db, embedder, scope, query, options, rarity);
}

/** What `evidenceSearch` is to its callers below chat (the search route). */
export type EvidenceSearch = typeof evidenceSearch;
