import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { TEXT_CONFIGS } from '../processing/language.ts';
import { type SearchScope, scopeFilesSql } from './search-scope.ts';

export interface RankedPassage {
  passageId: string;
  score: number;
}

/** BM25 parameters (the usual ones). */
const K1 = 1.2;
const B = 0.75;

/**
 * Full-text search in every passage's own language, scored like BM25.
 *
 * The question is turned into one OR query per text configuration (websearch/plainto AND every word, which for a
 * question matches almost nothing). Each matching passage is scored per query term with the term's inverse
 * document frequency within the caller's scope and a saturating term frequency normalised by passage length. The
 * term frequency is recovered from `ts_rank` of the single-term query, which for an unweighted tsvector is the
 * partial sum of 1/j² over the term's positions (so tf ≈ 1/(π²/6 − r/r₁) − ½).
 */
export async function fullTextSearch(
  db: DbOrTx,
  scope: SearchScope,
  query: string,
  limit: number,
): Promise<RankedPassage[]> {
  const scopeFiles = scopeFilesSql(scope);
  const [k1, k1plus1, b] = [K1, K1 + 1, B].map((n) => sql.raw(n.toFixed(4)));
  const { rows } = await db.execute<{ id: string; score: number }>(sql`
    with terms as (
      select c.cfg, t.lexeme, quote_literal(t.lexeme)::tsquery as q
      from unnest(${sql.param([...TEXT_CONFIGS])}::text[]) as c(cfg)
      cross join lateral unnest(tsvector_to_array(to_tsvector(c.cfg::regconfig, ${query}))) as t(lexeme)
    ),
    queries as (
      select cfg, string_agg(quote_literal(lexeme), ' | ')::tsquery as q from terms group by cfg
    ),
    scope_files as (${scopeFiles}),
    stats as (
      select greatest(coalesce(sum(passage_count), 0), 1)::float8 as n,
             greatest(coalesce(sum(token_count)::float8 / nullif(sum(passage_count), 0), 1), 1) as avgdl
      from scope_files
    ),
    matched as (
      select p.id, p.text_config, p.tsv, p.token_count
      from queries qq
      join passages p on p.text_config = qq.cfg and p.tsv @@ qq.q
      join scope_files s on s.id = p.file_id and s.active_generation = p.generation
      where p.company_id = ${scope.companyId}
    ),
    hits as (
      select * from (
        select m.id, t.cfg, t.lexeme, m.token_count, ts_rank(m.tsv, t.q, 0) as r
        from matched m join terms t on t.cfg = m.text_config
      ) ranked where r > 0
    ),
    df as (select cfg, lexeme, count(*)::float8 as df from hits group by cfg, lexeme)
    select h.id, sum(
        ln(1 + (stats.n - df.df + 0.5) / (df.df + 0.5))
        * (x.tf * ${k1plus1}) / (x.tf + ${k1} * (1 - ${b} + ${b} * h.token_count / stats.avgdl))
      )::float8 as score
    from hits h
    join df on df.cfg = h.cfg and df.lexeme = h.lexeme
    cross join stats
    cross join lateral (select greatest(1, round(1 / greatest(1.6449341 - h.r / 0.06079271, 0.02) - 0.5)) as tf) x
    group by h.id
    order by score desc, h.id
    limit ${limit}`);
  return rows.map((r) => ({ passageId: r.id, score: Number(r.score) }));
}
