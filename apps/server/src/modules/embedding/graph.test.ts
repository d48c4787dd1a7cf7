import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { nearestPassagesSql } from '../search/vector-search.ts';
import { ensureEmbeddingIndex } from './embedding-index.ts';
import { activeIndex } from './embedding-indexes.queries.ts';
import { graphJob } from './graph.job.ts';
import { graphBacklog } from './passage-embeddings.queries.ts';

// An exact scan takes at most 3 passages here: a company with more is "large" and its vectors belong in the graph.
const EXACT_SCAN_MAX = 3;
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false, env: { VECTOR_EXACT_SCAN_MAX: String(EXACT_SCAN_MAX) } });
});
afterAll(() => t?.close());

const db = () => t.server.ctx.db;
const PARTS = [
  'Pumpe',
  'Ventil',
  'Kessel',
  'Brenner',
  'Filter',
  'Rohrleitung',
  'Ausdehnungsgefäß',
  'Dichtung',
];
/** One section, about a passage long, per part: the passage of a part is found by the part's name. */
const sections = () =>
  PARTS.flatMap((part) => [
    { heading: part },
    {
      text: `${part} ${'wird jährlich vom Fachbetrieb gewartet und geprüft, '.repeat(3)}${`${part} `.repeat(50)}`,
    },
  ]);

async function inGraph(companyId: string): Promise<{ yes: number; no: number }> {
  const { rows } = await db().execute<{ yes: number; no: number }>(sql`
    select count(*) filter (where in_graph)::int as yes, count(*) filter (where not in_graph)::int as no
    from passage_embeddings where company_id = ${companyId}`);
  return rows[0]!;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** No graph job waits or runs (the one queued by the last publish has done its work). */
const graphJobsIdle = () =>
  until(async () => {
    const { rows } = await t.server.ctx.pool.query(
      "select 1 from pgboss.job where name = 'embedding.graph' and state in ('created', 'retry', 'active')",
    );
    return rows.length === 0 ? true : undefined;
  }, 'graph jobs idle');

const run = () => ({
  id: 'test',
  retryCount: 0,
  retryLimit: 0,
  isFinalAttempt: true,
  signal: new AbortController().signal,
});

describe('the HNSW graph, filled in the background', () => {
  let large: Awaited<ReturnType<typeof companyWithFile>>;
  let small: Awaited<ReturnType<typeof companyWithFile>>;

  beforeAll(async () => {
    small = await companyWithFile(t, 'Der Katalog nennt nur ein Ersatzteil.');
    large = await companyWithFile(t, sections());
    expect(small.file.passageCount).toBeLessThanOrEqual(EXACT_SCAN_MAX);
    expect(large.file.passageCount).toBeGreaterThan(EXACT_SCAN_MAX);
  });

  it("moves a large company's vectors into the graph after its upload, and never a small company's", async () => {
    await until(
      async () => ((await inGraph(large.me.userData.companyId)).no === 0 ? true : undefined),
      'graph filled',
    );
    expect(await inGraph(large.me.userData.companyId)).toEqual({ yes: large.file.passageCount, no: 0 });
    await graphJobsIdle();
    expect(await inGraph(small.me.userData.companyId)).toEqual({ yes: 0, no: small.file.passageCount });
  });

  it('finds, in a large scope, passages in the graph and passages not yet in it alike', async () => {
    await graphJobsIdle();
    const index = (await activeIndex(db()))!;
    const companyId = large.me.userData.companyId;
    // The walk of the graph is a plan the planner can choose (at this size it would rather sort what it scanned).
    const [queryVector] = await t.server.ctx.embedder.embed(['Kessel'], 'query');
    const plan = await db().transaction(async (tx) => {
      await tx.execute(sql`set local enable_sort = off`);
      const scope = { companyId, divisionIds: null };
      const { rows } = await tx.execute(
        sql`explain ${nearestPassagesSql(scope, index, queryVector!, 10, 'graph')}`,
      );
      return rows.map((r) => Object.values(r).join('')).join('\n');
    });
    expect(plan).toContain(`passage_embeddings_hnsw_${index.id}`);

    const found = async (part: string) => {
      const { items } = (await large.client.get(`/search?q=${encodeURIComponent(part)}&mode=vector`)).body;
      return (items as Array<{ text: string }>)[0]?.text.startsWith(`${part} `);
    };

    expect(await found('Kessel')).toBe(true);

    // The last four parts written since the job last ran: found by the exact scan of the pending rows.
    await db().execute(sql`
      update passage_embeddings e set in_graph = false from passages p
      where p.id = e.passage_id and p.file_id = ${large.file.id}
        and p.text like any(${sql.param(PARTS.slice(4).map((part) => `${part} %`))}::text[])`);
    const pending = (await inGraph(companyId)).no;
    expect(pending).toBe(4);
    expect(await found('Ausdehnungsgefäß')).toBe(true);
    expect(await found('Ventil')).toBe(true);
    // Nothing moved them meanwhile: the pending rows answered.
    expect((await inGraph(companyId)).no).toBe(pending);
  });

  it('waits while the company is uploading, unless more vectors wait than an exact scan takes', async () => {
    await graphJobsIdle();
    const companyId = large.me.userData.companyId;
    const second = await companyWithFile(t, 'Ein weiteres Blatt.');
    // A file of the large company still being processed.
    await db().execute(
      sql`update files set company_id = ${companyId}, status = 'extracting' where id = ${second.file.id}`,
    );
    try {
      await db().execute(sql`update passage_embeddings set in_graph = true where company_id = ${companyId}`);
      await db().execute(sql`
        update passage_embeddings set in_graph = false where passage_id in (
          select passage_id from passage_embeddings where company_id = ${companyId} limit ${EXACT_SCAN_MAX})`);
      expect(await graphBacklog(db(), EXACT_SCAN_MAX)).toContainEqual(
        expect.objectContaining({ companyId, pending: EXACT_SCAN_MAX, busy: true }),
      );
      await graphJob.handler({}, t.server.ctx, run());
      expect((await inGraph(companyId)).no).toBe(EXACT_SCAN_MAX);
      // It looks again a little later.
      const { rows } = await t.server.ctx.pool.query(
        "select start_after > now() as later from pgboss.job where name = 'embedding.graph' and state = 'created'",
      );
      expect(rows).toEqual([{ later: true }]);

      await db().execute(sql`update passage_embeddings set in_graph = false where company_id = ${companyId}`);
      await graphJob.handler({}, t.server.ctx, run());
      expect(await inGraph(companyId)).toEqual({ yes: large.file.passageCount, no: 0 });
    } finally {
      await db().execute(sql`update files set status = 'ready' where id = ${second.file.id}`);
    }
  });

  it("replaces an installation's graph of every row with one of the moved rows (migration 0024 and the start)", async () => {
    const index = (await activeIndex(db()))!;
    const name = `passage_embeddings_hnsw_${index.id}`;
    const definition = async () => {
      const { rows } = await t.server.ctx.pool.query('select indexdef from pg_indexes where indexname = $1', [
        name,
      ]);
      return rows[0]?.indexdef as string | undefined;
    };
    // The graph as it was before: every row of the index.
    await db().execute(sql.raw(`drop index ${name}`));
    await db().execute(
      sql.raw(
        `create index ${name} on passage_embeddings using hnsw ((embedding::vector(${index.dimension})) ` +
          `vector_cosine_ops) where index_id = ${index.id}`,
      ),
    );
    const migration = readFileSync(
      new URL('../../../drizzle/0024_vectors-pending-graph.sql', import.meta.url),
      'utf8',
    );
    await db().execute(sql.raw(migration.split('--> statement-breakpoint').at(-1)!));
    expect(await definition()).toBeUndefined();

    await ensureEmbeddingIndex(t.server.ctx);
    expect(await definition()).toMatch(/WHERE \(\(index_id = \d+\) AND in_graph\)/);
  });
});
