import type { SearchHit, SearchMode } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { BuiltinEmbedder } from '../embedding/builtin-embedder.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { activeIndex, type EmbeddingIndex } from '../embedding/embedding-index.ts';
import { fullTextSearch, type RankedPassage } from './full-text-search.ts';
import type { SearchScope } from './search-scope.ts';
import { scopeSize, vectorSearch } from './vector-search.ts';

/** Reciprocal-rank fusion constant (the usual 60). */
const RRF_K = 60;
/** How deep each list is read before fusing. */
const CANDIDATES = 50;

/** Fuses ranked lists by reciprocal rank: a passage high in either list, or fairly high in both, comes first. */
export function fuseByRank(
  lists: Array<{ items: RankedPassage[]; weight: number }>,
  limit: number,
): RankedPassage[] {
  const scores = new Map<string, number>();
  for (const { items, weight } of lists) {
    items.forEach((item, rank) => {
      scores.set(item.passageId, (scores.get(item.passageId) ?? 0) + weight / (RRF_K + rank + 1));
    });
  }
  return [...scores.entries()]
    .map(([passageId, score]) => ({ passageId, score }))
    .sort((a, b) => b.score - a.score || a.passageId.localeCompare(b.passageId))
    .slice(0, limit);
}

/**
 * The embedder that made the active index's vectors: the installation's own, or, while a changed embedder's index
 * is still being built, the previous builtin one (other previous embedders cannot be rebuilt from the signature, and
 * search then uses full text alone until the switch).
 */
function queryEmbedderFor(index: EmbeddingIndex, embedder: Embedder): Embedder | null {
  if (index.signature === embedder.signature) return embedder;
  const builtin = /^builtin-v1:(\d+)$/.exec(index.signature);
  return builtin ? new BuiltinEmbedder(Number(builtin[1])) : null;
}

export interface SearchOptions {
  limit: number;
  mode: SearchMode;
  /** Force an exact vector scan (benchmarks compare it with the HNSW index). */
  forceExact?: boolean;
}

/** Ranked passage ids for a query within a scope: full text, vectors, or both fused by rank. */
export async function rankPassages(
  db: DbOrTx,
  embedder: Embedder,
  scope: SearchScope,
  query: string,
  options: SearchOptions,
): Promise<RankedPassage[]> {
  const depth = Math.max(CANDIDATES, options.limit);
  const wantText = options.mode !== 'vector';
  const wantVector = options.mode !== 'fulltext';
  const vectorList = async (): Promise<RankedPassage[]> => {
    const index = await activeIndex(db);
    const queryEmbedder = index ? queryEmbedderFor(index, embedder) : null;
    if (!index || !queryEmbedder) return [];
    const [vector] = await queryEmbedder.embed([query], 'query');
    const size = await scopeSize(db, scope);
    if (size === 0) return [];
    return vectorSearch(db, scope, index, vector!, depth, {
      scopeSize: size,
      forceExact: options.forceExact,
    });
  };
  const text = wantText ? await fullTextSearch(db, scope, query, depth) : [];
  const vector = wantVector ? await vectorList() : [];
  if (options.mode === 'fulltext') return text.slice(0, options.limit);
  if (options.mode === 'vector') return vector.slice(0, options.limit);
  return fuseByRank(
    [
      { items: text, weight: 1 },
      { items: vector, weight: 1 },
    ],
    options.limit,
  );
}

/** Search hits with their file, division, page, heading path and text, in rank order. */
export async function searchPassages(
  db: DbOrTx,
  embedder: Embedder,
  scope: SearchScope,
  query: string,
  options: SearchOptions,
): Promise<SearchHit[]> {
  const ranked = await rankPassages(db, embedder, scope, query, options);
  if (ranked.length === 0) return [];
  const { rows } = await db.execute<{
    id: string;
    file_id: string;
    file_name: string;
    mime_type: string;
    division_id: string;
    division_name: string;
    page: number | null;
    heading_path: string[];
    text: string;
  }>(sql`
    select p.id, p.file_id, f.name as file_name, f.mime_type, p.division_id, d.name as division_name, p.page,
           p.heading_path, p.text
    from passages p join files f on f.id = p.file_id join divisions d on d.id = p.division_id
    where p.id = any(${sql.param(ranked.map((r) => r.passageId))}::uuid[]) and p.company_id = ${scope.companyId}`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ranked.flatMap((r) => {
    const row = byId.get(r.passageId);
    if (!row) return [];
    return [
      {
        passageId: row.id,
        fileId: row.file_id,
        fileName: row.file_name,
        mimeType: row.mime_type,
        divisionId: row.division_id,
        divisionName: row.division_name,
        page: row.page,
        headingPath: row.heading_path,
        text: row.text,
        score: r.score,
      },
    ];
  });
}
