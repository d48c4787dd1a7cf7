import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migratedDatabase } from '../../../test/support/test-database.ts';
import type { Database, Db } from '../../db/database.ts';
import { refreshKnowledgeStatistics } from '../processing/analyze.job.ts';
import { writePassageBatch } from '../processing/passage-writer.ts';
import { fullTextSearch } from './full-text-search.ts';

let testDatabase: Awaited<ReturnType<typeof migratedDatabase>>;
let database: Database;
/** Company A writes about heating in every passage; company B has 2,500 passages, three of them on its heating. */
const a = { companyId: randomUUID(), divisionId: randomUUID() };
const b = { companyId: randomUUID(), divisionId: randomUUID() };

async function addFile(db: Db, company: typeof a, texts: string[]): Promise<string> {
  const fileId = randomUUID();
  await db.execute(sql`insert into files (id, company_id, division_id, name, size_bytes, mime_type, kind, sha256,
    storage_key, status, active_generation, ready_at) values (${fileId}, ${company.companyId}, ${company.divisionId},
    'x', 1, 'text/plain', 'txt', ${fileId}, ${`x/${fileId}`}, 'ready', 0, now())`);
  for (let start = 0; start < texts.length; start += 500) {
    await writePassageBatch(db, {
      fileId,
      companyId: company.companyId,
      divisionId: company.divisionId,
      generation: 0,
      textConfig: 'german',
      firstOrdinal: start,
      chunks: texts.slice(start, start + 500).map((text) => ({ text, headingPath: [], page: null })),
    });
  }
  await db.execute(sql`update files f set passage_count = s.n, token_count = s.t
    from (select count(*)::int as n, sum(token_count)::bigint as t from passages where file_id = ${fileId}) s
    where f.id = ${fileId}`);
  return fileId;
}

const frequencies = async (companyId: string) => {
  const { rows } = await database.db.execute<{ lexeme: string; passages: number }>(
    sql`select lexeme, passages from term_frequencies where company_id = ${companyId}`,
  );
  return Object.fromEntries(rows.map((r) => [r.lexeme, Number(r.passages)]));
};

beforeAll(async () => {
  testDatabase = await migratedDatabase('ww-terms-');
  database = testDatabase.database;
  const db = database.db;
  for (const company of [a, b]) {
    await db.execute(sql`insert into companies (id, name) values (${company.companyId}, 'x')`);
    await db.execute(
      sql`insert into divisions (id, company_id, name) values (${company.divisionId}, ${company.companyId}, 'x')`,
    );
  }
  await addFile(
    db,
    a,
    Array.from({ length: 3000 }, (_, i) => `Die Heizung Nummer ${i} wird geprüft.`),
  );
  await addFile(
    db,
    b,
    Array.from({ length: 2500 }, (_, i) =>
      i < 3
        ? `Die Heizung im Keller Nummer ${i}.`
        : i < 100
          ? `Die Pumpe Pumpe Pumpe Nummer ${i}.`
          : `Die Lüftung Nummer ${i} wird gewartet.`,
    ),
  );
  await refreshKnowledgeStatistics(db);
}, 120_000);
afterAll(() => testDatabase?.close());

it('counts in how many of its own passages each of a company’s terms occurs, leaving out words of one passage', async () => {
  const ofB = await frequencies(b.companyId);
  expect(ofB).toMatchObject({ heizung: 3, pump: 97, luftung: 2400, numm: 2500 });
  expect(ofB['0']).toBeUndefined();
  expect((await frequencies(a.companyId)).heizung).toBe(3000);
});

it('ranks a word rare in the company above a more frequent one, however common another company makes it', async () => {
  const scope = { companyId: b.companyId, divisionIds: null };
  const { hits } = await fullTextSearch(database.db, scope, 'Heizung Pumpe', 10);
  const { rows } = await database.db.execute<{ id: string; text: string }>(
    sql`select id, text from passages where id = any(${sql.param(hits.slice(0, 3).map((h) => h.passageId))}::uuid[])`,
  );
  expect(rows.map((r) => r.text).every((text) => text.includes('Heizung'))).toBe(true);
});

it('counts again after a company’s files change, and forgets a company that has nothing published', async () => {
  const db = database.db;
  const extra = await addFile(db, b, ['Die Heizung im Dach.', 'Die Heizung im Hof.']);
  await refreshKnowledgeStatistics(db);
  expect((await frequencies(b.companyId)).heizung).toBe(5);
  await db.execute(sql`delete from files where id = ${extra}`);
  await refreshKnowledgeStatistics(db);
  expect((await frequencies(b.companyId)).heizung).toBe(3);
  await db.execute(sql`delete from files where company_id = ${a.companyId}`);
  await refreshKnowledgeStatistics(db);
  expect(await frequencies(a.companyId)).toEqual({});
  const { rows } = await db.execute(
    sql`select 1 from term_frequency_counts where company_id = ${a.companyId}`,
  );
  expect(rows).toHaveLength(0);
});

it('refreshes the planner’s statistics of the counts it rewrote, which autovacuum may not do for minutes', async () => {
  const db = database.db;
  await addFile(db, b, ['Die Heizung im Keller.', 'Die Heizung im Bad.']);
  await refreshKnowledgeStatistics(db);
  const { rows } = await db.execute<{ relname: string; reltuples: number; live: number }>(sql`
    select c.relname, c.reltuples,
           case c.relname when 'term_frequencies' then (select count(*) from term_frequencies)
                          else (select count(*) from term_frequency_counts) end::int as live
    from pg_class c where c.relname in ('term_frequencies', 'term_frequency_counts') order by c.relname`);
  expect(rows.map((r) => [r.relname, Number(r.reltuples)])).toEqual(
    rows.map((r) => [r.relname, Number(r.live)]),
  );
});

it('leaves nothing in the full-text indexes’ pending lists, which every search would read whole', async () => {
  // GIN takes new entries into an unsorted pending list until a vacuum merges it; PGlite runs no autovacuum.
  const { rows } = await database.db.execute<{ pages: string }>(sql`
    select coalesce(sum(gin_clean_pending_list(i.indexrelid)), 0)::bigint as pages
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
    where i.indrelid = 'passages'::regclass and am.amname = 'gin'`);
  expect(Number(rows[0]!.pages)).toBe(0);
});
