import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/test-server.ts';
import { vectorArrayBinary, vectorArrayParam } from './vector-param.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

async function roundTrip(vectors: number[][]): Promise<number[][]> {
  const db = t.server.ctx.db;
  const { rows } = await db.execute<{ v: string }>(
    sql`select e::text as v from unnest(${await vectorArrayParam(db, vectors)}) with ordinality as u(e, n) order by n`,
  );
  // pgvector prints the shortest decimal that reads back as the stored float4.
  return rows.map((r) => (JSON.parse(r.v) as number[]).map((x) => Math.fround(x)));
}

it('hands vectors to the database in binary, each float as the float4 it is stored as', async () => {
  const vectors = [
    [0.1, -2.5, 3.25, 1e-7],
    [0.333333333, 123456.789, -0, 42],
  ];
  const read = await roundTrip(vectors);
  expect(read).toEqual(vectors.map((v) => v.map((x) => Math.fround(x))));
  // As many dimensions as an embedder has: the order of the values is kept.
  const wide = Array.from({ length: 3 }, (_, i) =>
    Array.from({ length: 384 }, (_, j) => ((i + 1) * (j - 192)) / 1000),
  );
  expect(await roundTrip(wide)).toEqual(wide.map((v) => v.map((x) => Math.fround(x))));
});

it('writes a value that is not finite as 0, as the text form did, and an empty list as an empty array', async () => {
  expect(await roundTrip([[Number.NaN, Number.POSITIVE_INFINITY, 1]])).toEqual([[0, 0, 1]]);
  expect(await roundTrip([])).toEqual([]);
});

it('refuses vectors of different dimensions before anything is sent', () => {
  expect(() =>
    vectorArrayBinary(
      [
        [1, 2],
        [1, 2, 3],
      ],
      1,
    ),
  ).toThrow(/2 and 3 dimensions/);
});
