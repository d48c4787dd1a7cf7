import type { AppContext } from '../../app-context.ts';
import type { DbOrTx } from '../../db/database.ts';
import {
  activateIndex,
  activeIndex,
  createHnswIndex,
  dropIndexVectors,
  type EmbeddingIndex,
  liveIndexOf,
  saveIndex,
} from './embedding-indexes.queries.ts';

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
  return liveIndexOf(ctx.db, ctx.embedder.signature);
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
    const active = !(await activeIndex(tx));
    const index = await saveIndex(tx, {
      signature: ctx.embedder.signature,
      embedder: ctx.embedder.kind,
      model: ctx.embedder.model,
      dimension,
      active,
    });
    await createHnswIndex(tx, index);
    return { index, rebuild: !active };
  });
}

/** Replaces the active index with a fully built one; the old vectors and their HNSW index are dropped. */
export async function switchOver(ctx: AppContext, building: EmbeddingIndex): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const old = await activeIndex(tx);
    await activateIndex(tx, building.id);
    if (old) await dropIndexVectors(tx, old.id);
  });
}
