import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { toVectorLiteral } from '../embedding/embedder.ts';
import type { EmbeddingIndex } from '../embedding/embedding-indexes.queries.ts';
import type { RankedPassage } from './full-text-search.ts';
import { type SearchScope, scopeFilesSql } from './search-scope.ts';

/** The default of VECTOR_EXACT_SCAN_MAX. */
export const EXACT_SCAN_MAX = 20_000;

/**
 * Nearest passages by cosine distance within the scope. A small scope is scanned exactly. A large one walks the
 * index's HNSW graph with iterative scan (so that the company filter does not empty the result when the graph holds
 * many companies), and also scans exactly the scope's vectors not yet in the graph (written since the graph job last
 * ran, see graph.job.ts): the two lists are merged by distance, so a new passage is found at once either way.
 */
export async function vectorSearch(
  db: DbOrTx,
  scope: SearchScope,
  index: Pick<EmbeddingIndex, 'id' | 'dimension'>,
  queryVector: number[],
  limit: number,
  /** Up to `exactScanMax` passages in scope an exact scan is fast and cannot miss; above it HNSW is used. */
  options: { scopeSize: number; exactScanMax?: number; forceExact?: boolean },
): Promise<RankedPassage[]> {
  const exact = options.forceExact || options.scopeSize <= (options.exactScanMax ?? EXACT_SCAN_MAX);
  const statement = nearestPassagesSql(scope, index, queryVector, limit, exact ? 'exact' : 'graph');
  const { rows } = exact
    ? await db.execute<{ id: string; d: number }>(statement)
    : await db.transaction(async (tx) => {
        await setGraphWalk(tx);
        return tx.execute<{ id: string; d: number }>(statement);
      });
  return rows.map((r) => ({ passageId: r.id, score: 1 - Number(r.d) }));
}

/** Within a transaction: keep walking the graph until enough rows pass the company filter (pgvector >= 0.8). */
export async function setGraphWalk(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`set local hnsw.iterative_scan = 'relaxed_order'`);
  await tx.execute(sql`set local hnsw.ef_search = 100`);
}

/**
 * The statement of a vector search (rows `id`, `d`: passage and cosine distance, nearest first): an exact scan of
 * the scope, or the walk of the graph merged with the exact scan of the scope's pending vectors.
 */
export function nearestPassagesSql(
  scope: SearchScope,
  index: Pick<EmbeddingIndex, 'id' | 'dimension'>,
  queryVector: number[],
  limit: number,
  path: 'exact' | 'graph',
): SQL {
  const dim = sql.raw(String(Math.trunc(index.dimension)));
  const indexId = sql.raw(String(Math.trunc(index.id)));
  const v = sql`${toVectorLiteral(queryVector)}::vector(${dim})`;
  const distance = sql`(e.embedding::vector(${dim})) <=> ${v}`;
  // The scans order by the output column `d`: an expression of the distance (`+ 0`, once used to keep the planner
  // off the graph, which the partial index's `in_graph` now does) would compute each distance twice.
  if (path === 'exact')
    return sql`
      with scope_files as materialized (${scopeFilesSql(scope)})
      select e.passage_id as id, ${distance} as d
      from passage_embeddings e
      join scope_files s on s.id = e.file_id and s.active_generation = e.generation
      where e.index_id = ${indexId} and e.company_id = ${scope.companyId}
      order by d, e.passage_id
      limit ${limit}`;
  const inScope = sql`
    ${scope.divisionIds ? sql`and f.division_id = any(${sql.param(scope.divisionIds)}::uuid[])` : sql``}
    ${scope.files ? sql`and ${scope.files}` : sql``}`;
  // The graph's predicate (`in_graph`) must appear as such for the planner to walk the partial HNSW index.
  return sql`
    with graph as (
      select e.passage_id as id, ${distance} as d
      from passage_embeddings e
      join files f on f.id = e.file_id and f.active_generation = e.generation
      where e.index_id = ${indexId} and e.in_graph and e.company_id = ${scope.companyId} ${inScope}
      order by ${distance}
      limit ${limit}),
    pending as (
      select e.passage_id as id, ${distance} as d
      from passage_embeddings e
      join files f on f.id = e.file_id and f.active_generation = e.generation
      where e.index_id = ${indexId} and not e.in_graph and e.company_id = ${scope.companyId} ${inScope}
      order by d, e.passage_id
      limit ${limit})
    select id, d from graph union all select id, d from pending
    order by d, id
    limit ${limit}`;
}

/** How many published passages a scope holds (from the files' counts, without touching the passages). */
export async function scopeSize(db: DbOrTx, scope: SearchScope): Promise<number> {
  const { rows } = await db.execute<{ n: string }>(
    sql`select coalesce(sum(passage_count), 0)::bigint as n from (${scopeFilesSql(scope)}) s`,
  );
  return Number(rows[0]?.n ?? 0);
}
