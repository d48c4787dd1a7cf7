import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';

/**
 * Counts, per company, how many published passages hold each full-text term, for the companies whose counts are
 * out of date: a file published since they were counted, or a different number of published passages (a file or
 * division deleted). `ts_stat` does the counting in one pass over the company's tsvectors; terms of a single
 * passage are not stored (a term missing from the table is in at most one passage). The two tables are analyzed
 * after a recount. Returns the companies counted.
 */
export async function countStaleTermFrequencies(db: DbOrTx): Promise<number> {
  const { rows } = await db.execute<{ company_id: string; passages: number }>(sql`
    with published as (
      select company_id, coalesce(sum(passage_count), 0)::int as passages, max(ready_at) as last
      from files where active_generation is not null group by company_id
    )
    select coalesce(p.company_id, c.company_id) as company_id, coalesce(p.passages, 0) as passages
    from published p full join term_frequency_counts c on c.company_id = p.company_id
    where c.company_id is null or p.company_id is null or c.passages <> p.passages or p.last > c.counted_at`);
  for (const row of rows) await countTermFrequencies(db, row.company_id, row.passages);
  // The planner's statistics of what was just rewritten: a bulk recount leaves them to autovacuum, which PGlite does
  // not run and PostgreSQL's may run minutes later, and the questions' term lookups are planned from them.
  if (rows.length > 0) await db.execute(sql`analyze term_frequencies, term_frequency_counts`);
  return rows.length;
}

async function countTermFrequencies(db: DbOrTx, companyId: string, passages: number): Promise<void> {
  await db.transaction(async (tx) => {
    if (passages === 0) {
      await tx.execute(sql`delete from term_frequencies where company_id = ${companyId}`);
      await tx.execute(sql`delete from term_frequency_counts where company_id = ${companyId}`);
      return;
    }
    await tx.execute(sql`delete from term_frequencies where company_id = ${companyId}`);
    // ts_stat takes its query as text; the company id is a uuid the database handed us, quoted as a literal.
    await tx.execute(sql`
      insert into term_frequencies (company_id, lexeme, passages)
      select ${companyId}, word, ndoc from ts_stat(format(
        'select p.tsv from passages p join files f on f.id = p.file_id and f.active_generation = p.generation
         where p.company_id = %L and f.company_id = %L', ${companyId}::text, ${companyId}::text))
      where ndoc > 1`);
    await tx.execute(sql`
      insert into term_frequency_counts (company_id, passages, counted_at)
      select c.id, ${passages}, now() from companies c where c.id = ${companyId}
      on conflict (company_id) do update set passages = excluded.passages, counted_at = excluded.counted_at`);
  });
}

/**
 * The share of a company's published passages holding each word (the most of its lexemes in the text
 * configurations `configs`), keyed by the word as given; a lexeme the counts do not hold is in at most one passage.
 * Empty when the company's passages are not counted yet.
 */
export async function passageShares(
  db: DbOrTx,
  companyId: string,
  words: string[],
  configs: string[],
): Promise<Map<string, number>> {
  const { rows } = await db.execute<{ word: string; share: number | null }>(sql`
    with counted as (select passages from term_frequency_counts where company_id = ${companyId})
    select w.word, max(coalesce(tf.passages, 1)::float8 / counted.passages) as share
    from counted
    cross join unnest(${sql.param(words)}::text[]) as w(word)
    cross join unnest(${sql.param(configs)}::text[]) as c(cfg)
    cross join lateral unnest(tsvector_to_array(to_tsvector(c.cfg::regconfig, w.word))) as t(lexeme)
    left join term_frequencies tf on tf.company_id = ${companyId} and tf.lexeme = t.lexeme
    where counted.passages > 0
    group by w.word`);
  return new Map(rows.flatMap((r) => (r.share === null ? [] : [[r.word, Number(r.share)]])));
}
