/**
 * bench:search's probe of a binary pre-selection for the exact vector scan (issue 35, decision 0079): each vector's
 * signs (pgvector's `binary_quantize`) in a narrow table of their own, as a stored column would hold them; a short
 * list of the scope's passages nearest by Hamming distance on the signs; and the exact cosine re-rank of that short
 * list, in one statement. Against the product's exact scan of the same queries it prints recall@10 and @50 (by ids)
 * and both timings, for short lists of several lengths and two ways to compare a query with the signs:
 *   hamming      Hamming distance to the query's own signs (`binary_quantize` of both sides);
 *   asymmetric   only the query's non-zero dimensions count: disagreements with its positive dimensions minus
 *                those with its negative ones (a query of a few words leaves most builtin dimensions at zero,
 *                which the symmetric distance reads as negative).
 * The product does not use it: with the builtin embedder the signs lose too much (see 0079).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../src/db/database.ts';
import { toVectorLiteral } from '../../src/modules/embedding/embedder.ts';
import { type SearchScope, scopeFilesSql } from '../../src/modules/search/search-scope.ts';
import { nearestPassagesSql } from '../../src/modules/search/vector-search.ts';
import { fmt, mean, percentile, printTable } from './bench-kit.ts';

/** Short-list lengths probed (the scope of the 10k corpus's big company holds 8,500 passages). */
const SHORT_LISTS = [300, 1000, 3000];
const DEPTHS = [10, 50] as const;
type Scoring = 'hamming' | 'asymmetric';
type Db = Database['db'];

const bitString = (vector: number[], set: (x: number) => boolean) =>
  vector.map((x) => (set(x) ? '1' : '0')).join('');

async function createSignsTable(db: Db, indexId: number, dimension: number): Promise<void> {
  await db.execute(sql`drop table if exists bench_passage_signs`);
  await db.execute(sql`
    create table bench_passage_signs as
    select index_id, company_id, file_id, generation, passage_id,
           binary_quantize(embedding::vector(${sql.raw(String(dimension))}))::varbit as bits
    from passage_embeddings where index_id = ${indexId}`);
  await db.execute(sql`create index on bench_passage_signs (index_id, company_id)`);
  await db.execute(sql`analyze bench_passage_signs`);
}

function twoStageSql(
  scope: SearchScope,
  index: { id: number; dimension: number },
  query: number[],
  limit: number,
  shortList: number,
  scoring: Scoring,
): SQL {
  const dim = sql.raw(String(index.dimension));
  const positive = sql`${bitString(query, (x) => x > 0)}::bit(${dim})`;
  const negative = sql`${bitString(query, (x) => x < 0)}::bit(${dim})`;
  const key =
    scoring === 'hamming'
      ? sql`b.bits <~> ${positive}`
      : sql`(b.bits <~> ${positive}) - (b.bits <~> ${negative})`;
  return sql`
    with scope_files as materialized (${scopeFilesSql(scope)}),
    short as (
      select b.passage_id from bench_passage_signs b
      join scope_files s on s.id = b.file_id and s.active_generation = b.generation
      where b.index_id = ${index.id} and b.company_id = ${scope.companyId}
      order by ${key}, b.passage_id
      limit ${shortList})
    select e.passage_id as id, (e.embedding::vector(${dim})) <=> ${toVectorLiteral(query)}::vector(${dim}) as d
    from short join passage_embeddings e on e.index_id = ${index.id} and e.passage_id = short.passage_id
    order by d, e.passage_id
    limit ${limit}`;
}

interface Probe {
  name: string;
  statement: (query: number[]) => SQL;
  times: number[];
  lists: string[][];
}

/** Runs the probe for these query vectors (each statement in turn, rotating the order) and prints its table. */
export async function probeBinaryPreselection(
  db: Db,
  scope: SearchScope,
  index: { id: number; dimension: number },
  queries: number[][],
  depth: number,
): Promise<void> {
  await createSignsTable(db, index.id, index.dimension);
  const probe = (name: string, statement: Probe['statement']): Probe => ({
    name,
    statement,
    times: [],
    lists: [],
  });
  const exact = probe('exact scan (the product)', (q) => nearestPassagesSql(scope, index, q, depth, 'exact'));
  const probes = [exact];
  for (const scoring of ['hamming', 'asymmetric'] as const)
    for (const shortList of SHORT_LISTS)
      probes.push(
        probe(`${scoring}, short list ${shortList}`, (q) =>
          twoStageSql(scope, index, q, depth, shortList, scoring),
        ),
      );
  for (let i = 0; i < queries.length; i++) {
    for (let k = 0; k < probes.length; k++) {
      const p = probes[(i + k) % probes.length]!;
      const start = performance.now();
      const { rows } = await db.execute<{ id: string }>(p.statement(queries[i]!));
      p.times.push(performance.now() - start);
      p.lists.push(rows.map((r) => r.id));
    }
  }
  await db.execute(sql`drop table bench_passage_signs`);
  const recall = (p: Probe, at: number) =>
    p.lists.map((list, i) => {
      const found = new Set(list.slice(0, at));
      const truth = exact.lists[i]!.slice(0, at);
      return truth.filter((id) => found.has(id)).length / Math.max(1, truth.length);
    });
  console.log(
    `\n  binary pre-selection + exact re-rank against the exact scan, ${queries.length} queries, depth ${depth}` +
      ' (bench/support/binary-preselection.ts); milliseconds',
  );
  printTable(
    ['statement', ...DEPTHS.flatMap((at) => [`recall@${at}`, `min`]), `complete@${depth}`, 'p50', 'p95'],
    probes.map((p) => {
      const complete = recall(p, depth).filter((r) => r === 1).length;
      return [
        p.name,
        ...DEPTHS.flatMap((at) => [fmt(mean(recall(p, at)), 3), fmt(Math.min(...recall(p, at)), 2)]),
        `${complete}/${queries.length}`,
        fmt(percentile(p.times, 50)),
        fmt(percentile(p.times, 95)),
      ];
    }),
  );
}
