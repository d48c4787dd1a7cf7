import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migratedDatabase } from '../../../test/support/test-database.ts';
import type { Database } from '../../db/database.ts';
import { refreshKnowledgeStatistics } from '../processing/analyze.job.ts';
import { writePassageBatch } from '../processing/passage-writer.ts';
import { wordRarity } from './word-rarity.ts';

let testDatabase: Awaited<ReturnType<typeof migratedDatabase>>;
let database: Database;
/** Company A: 200 passages about its devices, 4 of them about the rated output; company B: nothing counted yet. */
const a = { companyId: randomUUID(), divisionId: randomUUID() };
const b = { companyId: randomUUID(), divisionId: randomUUID() };

async function addFile(company: typeof a, texts: string[]): Promise<void> {
  const db = database.db;
  const fileId = randomUUID();
  await db.execute(sql`insert into files (id, company_id, division_id, name, size_bytes, mime_type, kind, sha256,
    storage_key, status, active_generation, ready_at, language) values (${fileId}, ${company.companyId},
    ${company.divisionId}, 'x', 1, 'text/plain', 'txt', ${fileId}, ${`x/${fileId}`}, 'ready', 0, now(), 'deu')`);
  await writePassageBatch(db, {
    fileId,
    companyId: company.companyId,
    divisionId: company.divisionId,
    generation: 0,
    textConfig: 'german',
    firstOrdinal: 0,
    chunks: texts.map((text) => ({ text, headingPath: [], page: null })),
  });
  await db.execute(sql`update files f set passage_count = s.n, token_count = s.t
    from (select count(*)::int as n, sum(token_count)::bigint as t from passages where file_id = ${fileId}) s
    where f.id = ${fileId}`);
}

beforeAll(async () => {
  testDatabase = await migratedDatabase('ww-rarity-');
  database = testDatabase.database;
  for (const company of [a, b]) {
    await database.db.execute(sql`insert into companies (id, name) values (${company.companyId}, 'x')`);
    await database.db.execute(
      sql`insert into divisions (id, company_id, name) values (${company.divisionId}, ${company.companyId}, 'x')`,
    );
  }
  await addFile(
    a,
    Array.from({ length: 200 }, (_, i) =>
      i < 4 ? `Die Nennwärmeleistung des Geräts Nummer ${i}.` : `Das Gerät Nummer ${i} wird gewartet.`,
    ),
  );
  await refreshKnowledgeStatistics(database.db);
  await addFile(b, ['Das Gerät wird gewartet.', 'Das Gerät steht im Keller.']);
}, 120_000);
afterAll(() => testDatabase?.close());

it('tells the share of the company’s passages that hold each word, by the folded word', async () => {
  const scope = { companyId: a.companyId, divisionIds: null };
  const rarity = await wordRarity(database.db, scope, [
    'Nennwärmeleistung',
    'Gerät',
    'Geräte',
    'Flurbelwanze',
  ]);
  expect(rarity.get('nennwarmeleistung')).toBeCloseTo(4 / 200);
  // Inflected as the documents are not: the index's stemmer finds it.
  expect(rarity.get('gerat')).toBe(1);
  expect(rarity.get('gerate')).toBe(1);
  // A word nobody wrote is in at most one passage.
  expect(rarity.get('flurbelwanze')).toBeCloseTo(1 / 200);
});

it('knows nothing of a company whose passages are not counted yet, and of no words', async () => {
  expect((await wordRarity(database.db, { companyId: b.companyId, divisionIds: null }, ['Gerät'])).size).toBe(
    0,
  );
  expect((await wordRarity(database.db, { companyId: a.companyId, divisionIds: null }, [])).size).toBe(0);
});
