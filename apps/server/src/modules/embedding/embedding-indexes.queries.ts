import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { embeddingIndexes, passageEmbeddings } from '../../db/schema/index.ts';

type IndexStatus = (typeof embeddingIndexes.$inferSelect)['status'];

/** A vector index: the embedder's signature and dimension it was built with, and whether search uses it. */
export type EmbeddingIndex = {
  id: number;
  signature: string;
  dimension: number;
  status: IndexStatus;
};

const ACTIVE: IndexStatus = 'active';
const BUILDING: IndexStatus = 'building';
const RETIRED: IndexStatus = 'retired';

const indexColumns = {
  id: embeddingIndexes.id,
  signature: embeddingIndexes.signature,
  dimension: embeddingIndexes.dimension,
  status: embeddingIndexes.status,
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

/** The index search uses. */
export async function activeIndex(db: DbOrTx): Promise<EmbeddingIndex | null> {
  const [index] = await db
    .select(indexColumns)
    .from(embeddingIndexes)
    .where(eq(embeddingIndexes.status, ACTIVE))
    .limit(1);
  return index ?? null;
}

/** The live index (active, or building) of an embedder's signature. */
export async function liveIndexOf(db: DbOrTx, signature: string): Promise<EmbeddingIndex | null> {
  const [index] = await db
    .select(indexColumns)
    .from(embeddingIndexes)
    .where(
      and(eq(embeddingIndexes.signature, signature), inArray(embeddingIndexes.status, [ACTIVE, BUILDING])),
    )
    .limit(1);
  return index ?? null;
}

/** An embedder's index, new or again: active (since now) when search has none, else building. */
export async function saveIndex(
  db: DbOrTx,
  index: { signature: string; embedder: string; model: string | null; dimension: number; active: boolean },
): Promise<EmbeddingIndex> {
  const status = index.active ? ACTIVE : BUILDING;
  const [saved] = await db
    .insert(embeddingIndexes)
    .values({
      signature: index.signature,
      embedder: index.embedder,
      model: index.model,
      dimension: index.dimension,
      status,
      activatedAt: index.active ? sql`now()` : null,
    })
    .onConflictDoUpdate({ target: embeddingIndexes.signature, set: { status, dimension: index.dimension } })
    .returning(indexColumns);
  return saved!;
}

/** Makes an index the one search uses, retiring the active one. */
export async function activateIndex(db: DbOrTx, indexId: number): Promise<void> {
  await db.update(embeddingIndexes).set({ status: RETIRED }).where(eq(embeddingIndexes.status, ACTIVE));
  await db
    .update(embeddingIndexes)
    .set({ status: ACTIVE, activatedAt: sql`now()` })
    .where(eq(embeddingIndexes.id, indexId));
}

/** Drops an index's graph and deletes its vectors. */
export async function dropIndexVectors(db: DbOrTx, indexId: number): Promise<void> {
  await db.execute(sql.raw(`drop index if exists ${hnswIndexName(indexId)}`));
  await db.delete(passageEmbeddings).where(eq(passageEmbeddings.indexId, indexId));
}
