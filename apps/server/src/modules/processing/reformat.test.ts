import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { companyWithFile } from '../../../test/support/knowledge.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
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
