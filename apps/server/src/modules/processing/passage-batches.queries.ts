import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import type { TextConfig } from '../../db/schema/index.ts';
import { vectorArrayParam } from '../../db/vector-param.ts';

/** Passages of one file's run, as written in one statement: one entry per passage in each array. */
export interface PassageRows {
  fileId: string;
  companyId: string;
  divisionId: string;
  generation: number;
  textConfig: TextConfig;
  ordinals: number[];
  texts: string[];
  /** Each passage's heading path as a JSON array. */
  headings: string[];
  pages: (number | null)[];
  /** Each passage's extra index words (weight C), '' for none. */
  parts: string[];
  /** The embedding index written to and one vector per passage. */
  embeddings?: { indexId: number; vectors: number[][] };
}

/**
 * Inserts the passages, indexed by their heading path, text and extra words, and their vectors, in one statement:
 * all of them or none.
 */
export async function insertPassages(db: DbOrTx, batch: PassageRows): Promise<void> {
  const cfg = batch.textConfig;
  const insert = sql`
    insert into passages (file_id, company_id, division_id, generation, ordinal, text, heading_path, page,
                          text_config, tsv, token_count)
    select ${batch.fileId}, ${batch.companyId}, ${batch.divisionId}, ${batch.generation}, i.ordinal, i.text,
           array(select json_array_elements_text(i.heading::json)), i.page, ${cfg}, v.tsv,
           (select coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0) from unnest(v.tsv) u)
    from unnest(${sql.param(batch.ordinals)}::int[], ${sql.param(batch.texts)}::text[], ${sql.param(batch.headings)}::text[], ${sql.param(batch.pages)}::int[], ${sql.param(batch.parts)}::text[]) as i(ordinal, text, heading, page, parts),
         lateral (select to_tsvector(${cfg}::regconfig,
                  array_to_string(array(select json_array_elements_text(i.heading::json)), ' ') || ' ' || i.text)
                  || setweight(to_tsvector(${cfg}::regconfig, i.parts), 'C') as tsv) v
    returning id, ordinal, company_id, file_id, generation`;
  if (!batch.embeddings) {
    await db.execute(insert);
    return;
  }
  const vectors = await vectorArrayParam(db, batch.embeddings.vectors);
  await db.execute(sql`
    with ins as (${insert})
    insert into passage_embeddings (passage_id, index_id, company_id, file_id, generation, embedding)
    select ins.id, ${batch.embeddings.indexId}, ins.company_id, ins.file_id, ins.generation, e.embedding
    from ins join unnest(${sql.param(batch.ordinals)}::int[], ${vectors}) as e(ordinal, embedding)
      using (ordinal)`);
}

/** The ordinal after the last passage a run wrote (0 when it wrote none). */
export async function nextOrdinal(db: DbOrTx, fileId: string, generation: number): Promise<number> {
  const { rows } = await db.execute<{ next: number }>(
    sql`select coalesce(max(ordinal) + 1, 0)::int as next from passages where file_id = ${fileId} and generation = ${generation}`,
  );
  return rows[0]?.next ?? 0;
}

/** Passages of a file that are not its published generation. */
export async function deleteUnpublished(db: DbOrTx, fileId: string): Promise<void> {
  await db.execute(sql`
    delete from passages p using files f
    where p.file_id = ${fileId} and f.id = p.file_id
      and (f.active_generation is null or p.generation <> f.active_generation)`);
}

/** Passages of a file that are not of this generation. */
export async function deleteOtherGenerations(db: DbOrTx, fileId: string, generation: number): Promise<void> {
  await db.execute(sql`delete from passages where file_id = ${fileId} and generation <> ${generation}`);
}
