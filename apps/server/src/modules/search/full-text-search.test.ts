import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyMigrations, type Database, openDatabase } from '../../db/database.ts';
import { type EmbeddedDatabase, startEmbeddedDatabase } from '../../db/embedded/embedded-database.ts';
import { writePassageBatch } from '../processing/passage-writer.ts';
import { fullTextSearch } from './full-text-search.ts';

const dir = mkdtempSync(join(tmpdir(), 'ww-fts-'));
let embedded: EmbeddedDatabase;
let database: Database;
const companyId = randomUUID();
const scope = { companyId, divisionIds: null };

beforeAll(async () => {
  embedded = await startEmbeddedDatabase(dir, () => {});
  database = openDatabase(embedded.url, 1);
  await applyMigrations(database);
  const db = database.db;
  const divisionId = randomUUID();
  const fileId = randomUUID();
  await db.execute(sql`insert into companies (id, name) values (${companyId}, 'x')`);
  await db.execute(
    sql`insert into divisions (id, company_id, name) values (${divisionId}, ${companyId}, 'x')`,
  );
  await db.execute(sql`insert into files (id, company_id, division_id, name, size_bytes, mime_type, kind, sha256,
    storage_key, status, active_generation) values (${fileId}, ${companyId}, ${divisionId}, 'x', 1, 'text/plain',
    'txt', 'x', 'x/x', 'ready', 0)`);
  // 3,000 passages, every one about the heating: "Heizung" is a common term for the statistics.
  for (let start = 0; start < 3000; start += 500) {
    const chunks = Array.from({ length: 500 }, (_, i) => ({
      text: `Die Heizung Nummer ${start + i} wird im Herbst geprüft.`,
      headingPath: [],
      page: null,
    }));
    await writePassageBatch(db, {
      fileId,
      companyId,
      divisionId,
      generation: 0,
      textConfig: 'german',
      firstOrdinal: start,
      chunks,
    });
  }
  await db.execute(sql`update files set passage_count = 3000, token_count = 18000 where id = ${fileId}`);
  await db.execute(sql`analyze passages`);
}, 120_000);
afterAll(async () => {
  await database?.close();
  await embedded?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('still finds passages of the common terms when the rare word of a question matches nothing', async () => {
  expect(await fullTextSearch(database.db, scope, 'Heizung', 10)).toHaveLength(10);
  expect(await fullTextSearch(database.db, scope, 'Heizung Xylophonkeller', 10)).toHaveLength(10);
});
