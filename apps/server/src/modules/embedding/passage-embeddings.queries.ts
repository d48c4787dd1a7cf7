import type { FileStatus } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import type { embeddingIndexes } from '../../db/schema/index.ts';
import { vectorArrayParam } from '../../db/vector-param.ts';

type IndexStatus = (typeof embeddingIndexes.$inferSelect)['status'];

const READY: FileStatus = 'ready';
/** Files whose processing ended: published, failed or cancelled. */
const SETTLED: FileStatus[] = ['ready', 'failed', 'cancelled'];
const LIVE: IndexStatus[] = ['active', 'building'];

/** A passage to embed: its text and its headings, joined by spaces. */
export interface PassageText {
  id: string;
  text: string;
  heading: string;
}

/** Up to `limit` passages without a vector in the index. */
export async function passagesWithoutVector(
  db: DbOrTx,
  indexId: number,
  limit: number,
): Promise<PassageText[]> {
  const { rows } = await db.execute<{ id: string; text: string; heading: string }>(sql`
    select p.id, p.text, array_to_string(p.heading_path, ' ') as heading from passages p
    where not exists (select 1 from passage_embeddings e where e.passage_id = p.id and e.index_id = ${indexId})
    limit ${limit}`);
  return rows;
}

/** The vectors of these passages in the index (one each, in order), pending the graph; a passage gone is skipped. */
export async function insertPassageVectors(
  db: DbOrTx,
  indexId: number,
  passageIds: string[],
  vectors: number[][],
): Promise<void> {
  await db.execute(sql`
    insert into passage_embeddings (passage_id, index_id, company_id, file_id, generation, embedding)
    select p.id, ${indexId}, p.company_id, p.file_id, p.generation, v.embedding
    from unnest(${sql.param(passageIds)}::uuid[], ${await vectorArrayParam(db, vectors)})
      as v(passage_id, embedding)
    join passages p on p.id = v.passage_id
    on conflict do nothing`);
}

export type GraphBacklog = {
  indexId: number;
  companyId: string;
  /** Vectors not in the graph yet, counted up to `exactScanMax + 1`. */
  pending: number;
  /** Some of the company's files are still being processed. */
  busy: boolean;
};

/**
 * The companies with vectors to move into a live index's graph: only those whose published passages outgrow an
 * exact scan (more than `exactScanMax`). A smaller company's every scope is scanned exactly and never reads the
 * graph, so its vectors never pay for one.
 */
export async function graphBacklog(db: DbOrTx, exactScanMax: number): Promise<GraphBacklog[]> {
  const { rows } = await db.execute<GraphBacklog>(sql`
    with large as (
      select company_id from files where status = ${READY}
      group by company_id having sum(passage_count) > ${exactScanMax})
    select i.id as "indexId", l.company_id as "companyId",
      (select count(*) from (
         select 1 from passage_embeddings e
         where e.index_id = i.id and e.company_id = l.company_id and not e.in_graph
         limit ${exactScanMax + 1}) p)::int as pending,
      exists (select 1 from files f where f.company_id = l.company_id
              and f.status not in ${SETTLED}) as busy
    from embedding_indexes i cross join large l
    where i.status in ${LIVE}`);
  return rows.filter((r) => r.pending > 0);
}

/** Moves up to `limit` of a company's pending vectors into the index's graph; answers how many it moved. */
export async function moveIntoGraph(
  db: DbOrTx,
  indexId: number,
  companyId: string,
  limit: number,
): Promise<number> {
  const { rowCount } = await db.execute(sql`
    update passage_embeddings set in_graph = true
    where index_id = ${indexId} and not in_graph and passage_id in (
      select passage_id from passage_embeddings
      where index_id = ${indexId} and company_id = ${companyId} and not in_graph
      limit ${limit} for update skip locked)`);
  return rowCount ?? 0;
}
