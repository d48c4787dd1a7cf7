import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { activeIndex } from '../embedding/embedding-indexes.queries.ts';
import { nearestPassagesSql } from './vector-search.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

const db = () => t.server.ctx.db;
const PARTS = ['Pumpe', 'Ventil', 'Kessel', 'Brenner', 'Filter', 'Dichtung'];
/** A passage per part, the pump's twice (the same heading and text: the same vector, a tie). */
const sections = () =>
  [...PARTS, 'Pumpe'].flatMap((part) => [
    { heading: part },
    {
      text: `${part} ${'wird jährlich vom Fachbetrieb gewartet und geprüft, '.repeat(3)}${`${part} `.repeat(50)}`,
    },
  ]);

const cosineDistance = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return 1 - dot / Math.sqrt(na * nb);
};

describe('the exact vector scan', () => {
  let company: Awaited<ReturnType<typeof companyWithFile>>;
  beforeAll(async () => {
    company = await companyWithFile(t, sections());
  });

  const exact = async (query: string, limit: number) => {
    const index = (await activeIndex(db()))!;
    const [vector] = await t.server.ctx.embedder.embed([query], 'query');
    const scope = { companyId: company.me.userData.companyId, divisionIds: null };
    return { index, vector: vector!, statement: nearestPassagesSql(scope, index, vector!, limit, 'exact') };
  };

  it('lists every passage of the scope by cosine distance, ties by passage id', async () => {
    const { index, vector, statement } = await exact('Pumpe Wartung', 20);
    const { rows } = await db().execute<{ id: string; d: number }>(statement);
    const { rows: all } = await db().execute<{ id: string; embedding: string }>(sql`
      select passage_id as id, embedding::text as embedding from passage_embeddings
      where index_id = ${index.id} and company_id = ${company.me.userData.companyId}`);
    expect(all.length).toBe(PARTS.length + 1);
    // Every passage, each at the distance computed here (float4 in the database, float8 here), nearest first; equal
    // distances by passage id.
    const distance = new Map(all.map((p) => [p.id, cosineDistance(JSON.parse(p.embedding), vector)]));
    expect(rows.map((r) => r.id).sort()).toEqual([...distance.keys()].sort());
    for (const [i, row] of rows.entries()) {
      expect(Number(row.d)).toBeCloseTo(distance.get(row.id)!, 5);
      const next = rows[i + 1];
      if (!next) continue;
      expect(Number(next.d)).toBeGreaterThanOrEqual(Number(row.d));
      if (Number(next.d) === Number(row.d)) expect(next.id > row.id).toBe(true);
    }
    // The pump's two passages are nearest, equally near, the smaller id first.
    expect(Number(rows[0]!.d)).toBe(Number(rows[1]!.d));
    expect(rows[0]!.id < rows[1]!.id).toBe(true);
    expect(Number(rows[2]!.d)).toBeGreaterThan(Number(rows[1]!.d));
  });

  it('computes each distance once, and never walks the graph', async () => {
    const { statement } = await exact('Kessel', 3);
    const plan = async () => {
      const { rows } = await db().transaction(async (tx) => {
        // Where a walk of the graph is possible at all, the planner takes it rather than an unsortable plan.
        await tx.execute(sql`set local enable_sort = off`);
        return tx.execute(sql`explain (verbose, costs off) ${statement}`);
      });
      return rows.map((r) => Object.values(r).join(''));
    };
    const companyId = company.me.userData.companyId;
    await db().execute(sql`update passage_embeddings set in_graph = true where company_id = ${companyId}`);
    try {
      const lines = await plan();
      expect(lines.join('\n')).not.toMatch(/hnsw/);
      const distances = lines.filter((l) => l.includes('Output:')).map((l) => l.split('<=>').length - 1);
      expect(Math.max(...distances)).toBe(1);
    } finally {
      await db().execute(sql`update passage_embeddings set in_graph = false where company_id = ${companyId}`);
    }
  });
});
