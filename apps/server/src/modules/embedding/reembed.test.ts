import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { makeDocx, waitForFile } from '../../../test/support/documents.ts';
import { startFakeOpenAi } from '../../../test/support/fake-openai.ts';
import { signedInDataManager, startTestServer } from '../../../test/support/test-server.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'ww-reembed-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('re-embeds in the background when the embedder changes, searching the old index until it switches over', async () => {
  const fake = await startFakeOpenAi(16);
  const first = await startTestServer({ smtp: false, dataDir });
  let email: string;
  let password: string;
  let fileId: string;
  try {
    const dm = await signedInDataManager(first, { language: 'en' });
    ({ email, password } = dm);
    const divisionId = (await dm.client.post('/divisions', { name: 'Heizung' })).body.id;
    const up = await dm.client.upload(`/divisions/${divisionId}/files`, [
      {
        name: 'Wartung.docx',
        content: await makeDocx([{ text: 'Der Filter der Wärmepumpe wird jährlich gereinigt.' }]),
      },
    ]);
    fileId = up.body.results[0].file.id;
    await waitForFile(dm.client, fileId);
  } finally {
    await first.close();
  }

  const openAiEnv = {
    EMBEDDER: 'openai',
    EMBEDDER_URL: fake.url,
    EMBEDDER_MODEL: 'fake-embedding',
    EMBEDDER_API_KEY: 'sk-test',
  };
  fake.failWith = 503; // the new embedder is down at first
  const second = await startTestServer({
    smtp: false,
    dataDir,
    env: openAiEnv,
  }).catch((error) => error as Error);
  // The dimension of a new embedder is learnt from the endpoint: unreachable, the server says why and stops.
  expect(second).toBeInstanceOf(Error);
  expect((second as Error).message).toMatch(/503/);

  fake.failWith = null;
  const third = await startTestServer({
    smtp: false,
    dataDir,
    env: openAiEnv,
  });
  try {
    const client = third.client();
    await client.post('/auth/login', { email: email!, password: password!, area: 'user' });
    const query = `/search?q=${encodeURIComponent('Wärmepumpe Filter')}&mode=vector`;
    const deadline = Date.now() + 30_000;
    let indexes: Array<{ embedder: string; status: string; dimension: number }> = [];
    for (;;) {
      // Throughout the rebuild, vector search answers from whichever index is active.
      expect((await client.get(query)).body.items[0]?.fileId).toBe(fileId!);
      ({ rows: indexes } = await third.server.ctx.db.execute<{
        embedder: string;
        status: string;
        dimension: number;
      }>(sql`select embedder, status, dimension from embedding_indexes order by id`));
      if (indexes.some((i) => i.embedder === 'openai' && i.status === 'active')) break;
      if (Date.now() > deadline) throw new Error(`no switch-over: ${JSON.stringify(indexes)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(indexes).toEqual([
      { embedder: 'builtin', status: 'retired', dimension: 384 },
      { embedder: 'openai', status: 'active', dimension: 16 },
    ]);
    const { rows } = await third.server.ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from passage_embeddings e join embedding_indexes i on i.id = e.index_id where i.status = 'retired'`,
    );
    expect(rows[0]!.n).toBe(0);
    // The server remembered the retired index for its searches: the next one finds it empty and moves on.
    expect((await client.get(query)).body.items[0]?.fileId).toBe(fileId!);
    expect(
      fake.requests.some((r) => r.body?.input?.some?.((t: string) => t.includes('jährlich gereinigt'))),
    ).toBe(true);
  } finally {
    await third.close();
    await fake.close();
  }
}, 120_000);
