import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { ApiClient } from './support/api-client.ts';
import { makeDocx, waitForFile } from './support/documents.ts';
import { startFakeLlm } from './support/fake-llm.ts';
import { freePort, processesPerTest, START_WAIT_MS } from './support/processes.ts';
import { stream } from './support/sse.ts';
import {
  createTestDatabase,
  engineDatabase,
  engineEnv,
  onPostgres,
  postgresSecrets,
  seedFromTemplate,
} from './support/test-database.ts';
import { registration } from './support/test-server.ts';

/** SIGTERM through real processes: what a stopping server does with open answer streams and running jobs. */

const { start, tempDir, onCleanup } = processesPerTest('ww-stop-');

async function signedIn(client: ApiClient) {
  const body = registration({ language: 'de' });
  expect((await client.post('/auth/register', body)).status).toBe(201);
  const login = await client.post('/auth/login', {
    email: body.email,
    password: body.password,
    area: 'user',
  });
  expect(login.status).toBe(200);
  return body;
}

/** Uploads a .docx into a new division and returns the ids. */
async function upload(client: ApiClient, parts: Parameters<typeof makeDocx>[0]) {
  const divisionId = (await client.post('/divisions', { name: 'Technik' })).body.id as string;
  const up = await client.upload(`/divisions/${divisionId}/files`, [
    { name: 'Handbuch.docx', content: await makeDocx(parts) },
  ]);
  return { divisionId, fileId: up.body.results[0].file.id as string };
}

const MANUAL =
  'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet. Danach muss der Wasserdruck auf 1,5 bar geprüft werden.';

/** A test's time: its servers' starts (START_WAIT_MS each) and what it does with them. */
const ONE_START_MS = START_WAIT_MS + 120_000;
const TWO_STARTS_MS = 2 * START_WAIT_MS + 60_000;
const LONG_JOB_MS = 2 * START_WAIT_MS + 400_000;

describe('a server stopped with SIGTERM', () => {
  it(
    'ends an open answer stream with an error event and stores the partial answer',
    async () => {
      const llm = await startFakeLlm();
      onCleanup(() => llm.close());
      const dataDir = tempDir();
      const port = await freePort();
      const server = start([], {
        ...(await engineEnv(dataDir)),
        DATA_DIR: dataDir,
        PORT: String(port),
        ADMIN_PASSWORD: 'admin-pass-1',
        OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
        SHUTDOWN_GRACE_SECONDS: '2',
      });
      await server.waitFor('is running at');
      const client = new ApiClient(`http://127.0.0.1:${port}`);
      await signedIn(client);
      const { divisionId, fileId } = await upload(client, [{ heading: 'Heizung' }, { text: MANUAL }]);
      expect((await waitForFile(client, fileId)).status).toBe('ready');
      const provider = { baseUrl: llm.url, apiKey: 'sk-test-0123456789abcdef', model: 'gpt-4o-mini' };
      expect((await client.request('PUT', '/ai-providers/openai', provider)).status).toBe(200);
      const chatId = (
        await client.post('/chats', { name: 'KI', provider: 'openai', divisionIds: [divisionId] })
      ).body.id as string;

      // A long answer, one word every 200 ms.
      llm.setScript({ text: 'Mit einem Vierkantschlüssel [1], '.repeat(40), chunkDelayMs: 200 });
      const answer = stream(client, `/chats/${chatId}/messages`, {
        content: 'Womit wird der Heizkörper entlüftet?',
      });
      const [call] = await llm.waitForRequests(1, 'chat', 30_000);
      while (call!.chunksSent < 3) await new Promise((r) => setTimeout(r, 50));
      server.child.kill('SIGTERM');

      const res = await answer;
      const events = res.events.map((e) => e.event);
      expect(events.at(-2)).toBe('error');
      expect(events.at(-1)).toBe('done');
      const error = res.events.at(-2)!.data;
      expect(error.code).toBe('SERVER_STOPPING');
      expect(error.message).toBe(
        'Der Server wurde während der Antwort neu gestartet. Die bisherige Antwort wurde gespeichert; bitte stellen Sie die Frage noch einmal.',
      );
      const partial = res.text();
      expect(partial.length).toBeGreaterThan(0);
      expect(res.done()).toMatchObject({
        status: 'interrupted',
        errorCode: 'SERVER_STOPPING',
        content: partial,
      });
      expect(await server.exited).toBe(0);

      // What the client was told is what is stored.
      const engine = await engineDatabase(dataDir);
      const database = openDatabase(engine.url, 1);
      try {
        const { rows } = await database.db.execute<{
          status: string;
          content: string;
          error_code: string;
        }>(sql`
        select status, content, error_code from chat_messages where role = 'assistant' and chat_id = ${chatId}`);
        expect(rows).toEqual([{ status: 'interrupted', content: partial, error_code: 'SERVER_STOPPING' }]);
      } finally {
        await database.close();
        await engine.close();
      }
    },
    ONE_START_MS,
  );

  it(
    'sent to the whole process group (as systemd does) keeps its embedded database until it has stopped',
    async () => {
      const dataDir = tempDir();
      const port = await freePort();
      const env = {
        ...(await engineEnv(dataDir)),
        DATA_DIR: dataDir,
        PORT: String(port),
        ADMIN_PASSWORD: 'admin-pass-1',
        SHUTDOWN_GRACE_SECONDS: '2',
      };
      const server = start([], env, undefined, true);
      await server.waitFor('is running at');
      const account = await signedIn(new ApiClient(`http://127.0.0.1:${port}`));
      // The embedded database (PGlite's process) is in the group too: it must not stop before the server is done.
      process.kill(-server.child.pid!, 'SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.output()).not.toContain('stopped unexpectedly');
      const again = start([], env);
      await again.waitFor('is running at');
      const login = await new ApiClient(`http://127.0.0.1:${port}`).post('/auth/login', {
        email: account.email,
        password: account.password,
        area: 'user',
      });
      expect(login.status).toBe(200);
    },
    TWO_STARTS_MS,
  );

  it(
    'hands a long job back to the queue, and another worker finishes it as the same attempt',
    async () => {
      // A copy of the migrated template, as a test server's: the processes are the subject, not the first migration.
      let databaseUrl: string;
      if (onPostgres) {
        const database = await createTestDatabase(undefined, { migrated: true });
        onCleanup(() => database.drop());
        databaseUrl = database.url;
      } else {
        const dbPort = await freePort();
        const dbDir = tempDir();
        seedFromTemplate(dbDir);
        const db = start([], { DATA_DIR: dbDir, DB_PORT: String(dbPort) }, 'src/db/standalone-db.ts');
        await db.waitFor('DATABASE_URL=');
        databaseUrl = `postgres://postgres:postgres@127.0.0.1:${dbPort}/postgres`;
      }
      const env = {
        DATABASE_URL: databaseUrl,
        ...postgresSecrets,
        ADMIN_PASSWORD: 'admin-pass-1',
        DATA_DIR: tempDir(),
        SHUTDOWN_GRACE_SECONDS: '0',
      };
      const apiPort = await freePort();
      const api = start(['--role=api'], { ...env, PORT: String(apiPort) });
      await api.waitFor('is running at');
      const first = start(['--role=worker'], env);
      await first.waitFor('worker is running');

      const client = new ApiClient(`http://127.0.0.1:${apiPort}`);
      await signedIn(client);
      const paragraphs = Array.from({ length: 16_000 }, (_, i) => ({
        text: `Abschnitt ${i}: Die Anlage ${i % 97} wird im Monat ${i % 12} geprüft, Protokoll ${i * 7} liegt im Ordner ${i % 31}.`,
      }));
      const { fileId } = await upload(client, paragraphs);
      // Stopped while it writes passages (some batches are written, most are not).
      let during = await waitForFile(client, fileId, ['embedding'], 180_000);
      while (during.status === 'embedding' && during.progress <= 30) {
        await new Promise((r) => setTimeout(r, 20));
        during = (await client.get(`/files/${fileId}`)).body;
      }
      first.child.kill('SIGTERM');
      expect(during.status).toBe('embedding');
      expect(await first.exited).toBe(0);
      expect(first.output()).toContain('handed back jobs that were still running');
      const second = start(['--role=worker'], env);
      await second.waitFor('worker is running');

      const ready = await waitForFile(client, fileId, ['ready', 'failed'], 180_000);
      expect(ready.status).toBe('ready');
      const database = openDatabase(databaseUrl, 1);
      try {
        const { rows } = await database.db.execute<Record<string, number>>(sql`
        select count(*)::int as passages, count(distinct ordinal)::int as ordinals,
               (max(ordinal) + 1)::int as expected
        from passages where file_id = ${fileId}`);
        expect(rows[0]).toEqual({
          passages: ready.passageCount,
          ordinals: ready.passageCount,
          expected: ready.passageCount,
        });
        // Handed back, not recovered as an orphan or failed: the interrupted run did not count as an attempt.
        // (pg-boss marks the job completed a moment after the file is published.)
        const indexJobs = () =>
          database.db.execute<{ state: string; retry_count: number }>(sql`
          select state, retry_count from pgboss.job where name = 'file.index' and data->>'fileId' = ${fileId}`);
        let jobs = await indexJobs();
        for (let i = 0; i < 100 && jobs.rows[0]?.state === 'active'; i++) {
          await new Promise((r) => setTimeout(r, 100));
          jobs = await indexJobs();
        }
        expect(jobs.rows).toEqual([{ state: 'completed', retry_count: 0 }]);
      } finally {
        await database.close();
      }
    },
    LONG_JOB_MS,
  );
});
