import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { ApiClient } from './support/api-client.ts';
import { makeDocx, waitForFile } from './support/documents.ts';
import { freePort, type Proc, START_WAIT_MS, spawnServer } from './support/processes.ts';
import { engineDatabase, engineEnv } from './support/test-database.ts';
import { registration } from './support/test-server.ts';
import { startTestStorage, type TestStorage } from './support/test-storage.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'ww-crash-'));
const running: Proc[] = [];
// One store for both runs of the server: the restarted one finds the original and the passages' work file there.
let storage: TestStorage;
beforeAll(async () => {
  storage = await startTestStorage(dataDir);
});
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await storage?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const start = async (port: number) => {
  const proc = spawnServer([], {
    ...(await engineEnv(dataDir)),
    ...storage.env,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PORT: String(port),
    ADMIN_PASSWORD: 'admin-pass-1',
  });
  running.push(proc);
  return proc;
};

/** Two server starts (START_WAIT_MS each), the file's processing and its resumption. */
const TEST_MS = 2 * START_WAIT_MS + 400_000;

it(
  'resumes a file after the worker is killed mid-file, without duplicate or orphaned passages',
  async () => {
    const port = await freePort();
    const first = await start(port);
    await first.waitFor('is running at');
    const client = new ApiClient(`http://127.0.0.1:${port}`);
    const body = registration({ language: 'en' });
    expect((await client.post('/auth/register', body)).status).toBe(201);
    expect(
      (await client.post('/auth/login', { email: body.email, password: body.password, area: 'user' })).status,
    ).toBe(200);
    const divisionId = (await client.post('/divisions', { name: 'Archiv' })).body.id;
    const paragraphs = Array.from({ length: 12_000 }, (_, i) => ({
      text: `Abschnitt ${i}: Die Anlage ${i % 97} wird im Monat ${i % 12} geprüft, Protokoll ${i * 7} liegt im Ordner ${i % 31}.`,
    }));
    const up = await client.upload(`/divisions/${divisionId}/files`, [
      { name: 'Archiv.docx', content: await makeDocx(paragraphs) },
    ]);
    const fileId = up.body.results[0].file.id as string;

    // Kill the whole server (API and worker) while passages are being written.
    await waitForFile(client, fileId, ['embedding'], 120_000);
    let during = (await client.get(`/files/${fileId}`)).body;
    while (during.status === 'embedding' && during.progress <= 40) {
      await new Promise((r) => setTimeout(r, 50));
      during = (await client.get(`/files/${fileId}`)).body;
    }
    first.child.kill('SIGKILL');
    // Some batches were written, not all: the restart has to continue after them.
    expect(during.status).toBe('embedding');
    expect(during.progress).toBeLessThan(90);
    await first.exited;

    const second = await start(port);
    await second.waitFor('is running at');
    const ready = await waitForFile(client, fileId, ['ready', 'failed'], 180_000);
    expect(ready.status).toBe('ready');
    await second.stop();

    const engine = await engineDatabase(dataDir);
    const database = openDatabase(engine.url, 1);
    try {
      const { rows } = await database.db.execute<Record<string, string>>(sql`
      select count(*)::int as passages, count(distinct ordinal)::int as ordinals, (max(ordinal) + 1)::int as expected,
             count(distinct generation)::int as generations,
             (select count(*)::int from passage_embeddings e join passages p on p.id = e.passage_id where p.file_id = ${fileId}) as vectors
      from passages where file_id = ${fileId}`);
      const counts = rows[0]!;
      expect(counts.passages).toBe(ready.passageCount);
      expect(counts.ordinals).toBe(counts.passages);
      expect(counts.expected).toBe(counts.passages);
      expect(counts.generations).toBe(1);
      expect(counts.vectors).toBe(counts.passages);
    } finally {
      await database.close();
      await engine.close();
    }
  },
  TEST_MS,
);
