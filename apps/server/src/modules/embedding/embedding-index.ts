import { sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { DbOrTx } from '../../db/database.ts';

export type EmbeddingIndex = {
  id: number;
  signature: string;
  dimension: number;
  status: 'building' | 'active' | 'retired';
};

const hnswIndexName = (id: number) => `passage_embeddings_hnsw_${id}`;

/**
 * The partial HNSW index (the graph) of one embedding index: its own dimension, cosine distance, only its rows that
 * were moved into the graph (`in_graph`, see graph.job.ts).
 */
export async function createHnswIndex(db: DbOrTx, index: { id: number; dimension: number }): Promise<void> {
  await db.execute(
    sql.raw(
      `create index if not exists ${hnswIndexName(index.id)} on passage_embeddings using hnsw ` +
        `((embedding::vector(${index.dimension})) vector_cosine_ops) with (m = 16, ef_construction = 64) ` +
        `where index_id = ${index.id} and in_graph`,
    ),
  );
}

export async function activeIndex(db: DbOrTx): Promise<EmbeddingIndex | null> {
  const { rows } = await db.execute<EmbeddingIndex>(
    sql`select id, signature, dimension, status from embedding_indexes where status = 'active' limit 1`,
  );
  return rows[0] ?? null;
}

const remembered = new WeakMap<object, EmbeddingIndex>();

/**
 * The active index, remembered per database handle, for searches: it changes only at a switch-over, which deletes
 * the retired index's vectors in the same transaction, so a search of a remembered index that was retired finds
 * nothing, and the searcher then asks again with `fresh` (which also updates what is remembered).
 */
export async function searchIndex(
  db: DbOrTx,
  options: { fresh?: boolean } = {},
): Promise<EmbeddingIndex | null> {
  const known = options.fresh ? undefined : remembered.get(db);
  if (known) return known;
  const index = await activeIndex(db);
  if (index) remembered.set(db, index);
  else remembered.delete(db);
  return index;
}

/** The index the installation's embedder writes into (active, or building while the embedder changes). */
export async function currentIndex(ctx: AppContext): Promise<EmbeddingIndex | null> {
  const { rows } = await ctx.db.execute<EmbeddingIndex>(
    sql`select id, signature, dimension, status from embedding_indexes
        where signature = ${ctx.embedder.signature} and status in ('active', 'building') limit 1`,
  );
  return rows[0] ?? null;
}

/**
 * Makes sure the configured embedder has its index. A first index is active at once; an index for a changed
 * embedder is built in the background (the reembed job) while search keeps using the old one, then replaces it.
 * Answers whether a rebuild is needed.
 */
export async function ensureEmbeddingIndex(
  ctx: AppContext,
): Promise<{ index: EmbeddingIndex; rebuild: boolean }> {
  const existing = await currentIndex(ctx);
  if (existing) {
    // Each live index has its graph (migration 0024 dropped the graphs of every row; they come back empty).
    const active = await activeIndex(ctx.db);
    for (const index of active && active.id !== existing.id ? [existing, active] : [existing]) {
      await createHnswIndex(ctx.db, index);
    }
    return { index: existing, rebuild: existing.status === 'building' };
  }
  const dimension = await ctx.embedder.dimension();
  return ctx.db.transaction(async (tx) => {
    const active = await activeIndex(tx);
    const status = active ? 'building' : 'active';
    const { rows } = await tx.execute<EmbeddingIndex>(sql`
      insert into embedding_indexes (signature, embedder, model, dimension, status, activated_at)
      values (${ctx.embedder.signature}, ${ctx.embedder.kind}, ${ctx.embedder.model}, ${dimension}, ${status},
              ${status === 'active' ? sql`now()` : null})
      on conflict (signature) do update set status = ${status}, dimension = ${dimension}
      returning id, signature, dimension, status`);
    const index = rows[0]!;
    await createHnswIndex(tx, index);
    return { index, rebuild: status === 'building' };
  });
}

/** Replaces the active index with a fully built one; the old vectors and their HNSW index are dropped. */
export async function switchOver(ctx: AppContext, building: EmbeddingIndex): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const old = await activeIndex(tx);
    await tx.execute(sql`update embedding_indexes set status = 'retired' where status = 'active'`);
    await tx.execute(
      sql`update embedding_indexes set status = 'active', activated_at = now() where id = ${building.id}`,
    );
    if (old) {
      await tx.execute(sql.raw(`drop index if exists ${hnswIndexName(old.id)}`));
      await tx.execute(sql`delete from passage_embeddings where index_id = ${old.id}`);
    }
  });
}
