import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migratedDatabase } from '../../../test/support/test-database.ts';
import type { Database } from '../../db/database.ts';
import { refreshKnowledgeStatistics } from '../processing/analyze.job.ts';
import { writePassageBatch } from '../processing/passage-writer.ts';
import { fullTextSearch } from './full-text-search.ts';
import type { QueryTranslation } from './query-translation/translation.ts';

let testDatabase: Awaited<ReturnType<typeof migratedDatabase>>;
let database: Database;
const companyId = randomUUID();
const scope = { companyId, divisionIds: null };

beforeAll(async () => {
  testDatabase = await migratedDatabase('ww-fts-');
  database = testDatabase.database;
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
  // 5,000 passages, 2,200 of them about the heating: "Heizung" is a common term for the statistics (it does not
  // select candidates), but not in most passages (it is above the relevance floor).
  for (let start = 0; start < 5000; start += 500) {
    const chunks = Array.from({ length: 500 }, (_, i) => ({
      text:
        start + i < 2200
          ? `Die Heizung Nummer ${start + i} wird im Herbst geprüft.`
          : `Die Lüftung Nummer ${start + i} wird im Frühjahr gewartet.`,
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
  await db.execute(sql`update files set passage_count = 5000, token_count = 30000 where id = ${fileId}`);
  await refreshKnowledgeStatistics(db);
}, 120_000);
afterAll(() => testDatabase?.close());

it('still finds passages of the common terms when the rare word of a question matches nothing', async () => {
  expect((await fullTextSearch(database.db, scope, 'Heizung', 10)).hits).toHaveLength(10);
  expect((await fullTextSearch(database.db, scope, 'Heizung Xylophonkeller', 10)).hits).toHaveLength(10);
});

it('finds nothing when a question shares only a word of every passage with the scope', async () => {
  // "Nummer" is in every passage; "Xylophonkeller" in none: the question asks about something the scope lacks.
  expect((await fullTextSearch(database.db, scope, 'Nummer Xylophonkeller', 10)).hits).toHaveLength(0);
  // Alone, the common word is the whole question, and its passages are found.
  expect((await fullTextSearch(database.db, scope, 'Nummer', 10)).hits).toHaveLength(10);
});

it('weighs a translated question by its translations, not also by its own words the passages cannot hold', async () => {
  // "номер" translated into "Nummer": the Russian word is no unknown word of the German passages, whose weight would
  // leave the translation's common word below the floor, as "Xylophonkeller" does above.
  const translation: QueryTranslation = {
    source: 'rus',
    target: 'deu',
    via: 'dictionary',
    words: [{ word: 'номер', alternatives: [{ text: 'Nummer', weight: 0.8 }] }],
    functionWords: [],
  };
  const { hits } = await fullTextSearch(database.db, scope, 'номер', 10, undefined, [translation]);
  expect(hits).toHaveLength(10);
});

it('parses the question only in the configurations of the languages the caller knows the scope to hold', async () => {
  const all = await fullTextSearch(database.db, scope, 'Heizung Herbst', 10);
  const german = await fullTextSearch(database.db, scope, 'Heizung Herbst', 10, undefined, [], ['deu']);
  expect(german.hits).toHaveLength(10);
  expect(german.hits).toEqual(all.hits);
  // Told of English files only, it has no German words to look for.
  expect(
    (await fullTextSearch(database.db, scope, 'Heizung Herbst', 10, undefined, [], ['eng'])).hits,
  ).toEqual([]);
});
