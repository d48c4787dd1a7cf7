import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { vectorArrayParam } from '../embedding/vector-param.ts';
import type { Chunk } from './chunker.ts';
import type { TextConfig } from './language.ts';

export interface PassageBatch {
  fileId: string;
  companyId: string;
  divisionId: string;
  generation: number;
  textConfig: TextConfig;
  /** Ordinal of the first chunk of the batch within the file. */
  firstOrdinal: number;
  chunks: Chunk[];
  /** The embedding index written to and one vector per chunk; absent when the file has no vectors (yet). */
  embeddings?: { indexId: number; vectors: number[][] };
}

/** The text a passage is found by: its heading path, then its own text. */
export const indexText = (chunk: Chunk) => [...chunk.headingPath, chunk.text].join('\n');

/**
 * Writes one batch of passages and their vectors in one statement: all of it or nothing, so that a crash between
 * batches leaves whole batches that the next attempt continues after.
 */
export async function writePassageBatch(db: DbOrTx, batch: PassageBatch): Promise<void> {
  const ordinals = batch.chunks.map((_, i) => batch.firstOrdinal + i);
  const texts = batch.chunks.map((c) => c.text);
  const headings = batch.chunks.map((c) => JSON.stringify(c.headingPath));
  const pages = batch.chunks.map((c) => c.page);
  const cfg = batch.textConfig;
  const insertPassages = sql`
    insert into passages (file_id, company_id, division_id, generation, ordinal, text, heading_path, page,
                          text_config, tsv, token_count)
    select ${batch.fileId}, ${batch.companyId}, ${batch.divisionId}, ${batch.generation}, i.ordinal, i.text,
           array(select json_array_elements_text(i.heading::json)), i.page, ${cfg}, v.tsv,
           (select coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0) from unnest(v.tsv) u)
    from unnest(${sql.param(ordinals)}::int[], ${sql.param(texts)}::text[], ${sql.param(headings)}::text[], ${sql.param(pages)}::int[]) as i(ordinal, text, heading, page),
         lateral (select to_tsvector(${cfg}::regconfig,
                  array_to_string(array(select json_array_elements_text(i.heading::json)), ' ') || ' ' || i.text) as tsv) v
    returning id, ordinal, company_id, file_id, generation`;
  if (!batch.embeddings) {
    await db.execute(insertPassages);
    return;
  }
  const vectors = await vectorArrayParam(db, batch.embeddings.vectors);
  await db.execute(sql`
    with ins as (${insertPassages})
    insert into passage_embeddings (passage_id, index_id, company_id, file_id, generation, embedding)
    select ins.id, ${batch.embeddings.indexId}, ins.company_id, ins.file_id, ins.generation, e.embedding
    from ins join unnest(${sql.param(ordinals)}::int[], ${vectors}) as e(ordinal, embedding)
      using (ordinal)`);
}
