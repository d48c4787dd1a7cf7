import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import type { DbOrTx } from '../../db/database.ts';
import { searchPassages } from '../search/hybrid-search.ts';
import { PASSAGE_FORMAT } from './passage-writer.ts';
import { queueReformat } from './reformat.job.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

const row = async (fileId: string) =>
  (
    await t.server.ctx.db.execute<{ status: string; passage_format: number; active_generation: number }>(
      sql`select status, passage_format, active_generation from files where id = ${fileId}`,
    )
  ).rows[0]!;

it('reprocesses files published in an older passage format in the background, answering from them meanwhile', async () => {
  const dm = await companyWithFile(t, 'Der Filter der Wärmepumpe wird jährlich gereinigt.', 'Wartung', {
    language: 'de',
  });
  const fresh = await row(dm.file.id);
  expect(fresh).toMatchObject({ status: 'ready', passage_format: PASSAGE_FORMAT });
  // As after an update: the file's passages were written by an older version.
  await t.server.ctx.db.execute(sql`update files set passage_format = 0 where id = ${dm.file.id}`);

  await queueReformat(t.server.ctx);
  const search = () => dm.client.get(`/search?q=${encodeURIComponent('Filter Wärmepumpe')}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const now = await row(dm.file.id);
    if (now.status !== 'ready') {
      // Its published passages keep answering while it is processed again.
      expect((await search()).body.items.length).toBeGreaterThan(0);
    }
    if (now.passage_format === PASSAGE_FORMAT && now.status === 'ready') {
      expect(now.active_generation).toBeGreaterThan(fresh.active_generation);
      break;
    }
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(now)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect((await search()).body.items[0].fileId).toBe(dm.file.id);
});

it('a search that ranked passages of a file published again before it read them reads the new ones', async () => {
  const dm = await companyWithFile(t, 'Das Ausdehnungsgefäß wird alle zwei Jahre geprüft.', 'Wartung', {
    language: 'de',
  });
  const { db, embedder } = t.server.ctx;
  await db.execute(sql`update files set passage_format = 0 where id = ${dm.file.id}`);
  // The file is processed again and published right after the search ranked its old passages, before it reads them.
  const dialect = new PgDialect();
  let republished = false;
  const racing = new Proxy(db, {
    get(target, key) {
      if (key !== 'execute') return Reflect.get(target, key, target);
      return async (query: SQL) => {
        if (!republished && dialect.sqlToQuery(query).sql.includes('p.heading_path, p.text')) {
          republished = true;
          await queueReformat(t.server.ctx);
          for (
            let now = await row(dm.file.id);
            now.passage_format !== PASSAGE_FORMAT || now.status !== 'ready';
          ) {
            await new Promise((r) => setTimeout(r, 50));
            now = await row(dm.file.id);
          }
        }
        return target.execute(query);
      };
    },
  }) as DbOrTx;
  const { rows } = await db.execute<{ company_id: string }>(
    sql`select company_id from files where id = ${dm.file.id}`,
  );
  const scope = { companyId: rows[0]!.company_id, divisionIds: null };
  const hits = await searchPassages(racing, embedder, scope, 'Ausdehnungsgefäß', {
    limit: 5,
    mode: 'hybrid',
  });
  expect(republished).toBe(true);
  expect(hits.map((h) => h.fileId)).toEqual([dm.file.id]);
});
