import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/modules/auth/totp.ts';
import { ApiClient } from './support/api-client.ts';
import { connectByConsent } from './support/connector-consent.ts';
import { TestGoogleDrive } from './support/google-drive-server.ts';
import { TestGraph } from './support/graph-server.ts';
import { freePort, type Proc, START_WAIT_MS, spawnServer } from './support/processes.ts';
import { engineEnv } from './support/test-database.ts';
import { registration } from './support/test-server.ts';
import { startTestStorage, type TestStorage } from './support/test-storage.ts';
import { TestWebDav } from './support/webdav-server.ts';

const FILES = 80;
const USER = { user: 'anna', pass: 'app-passwort-1' };
const dataDir = mkdtempSync(join(tmpdir(), 'ww-sync-crash-'));
const running: Proc[] = [];
let storage: TestStorage;
let dav: TestWebDav;
let graph: TestGraph;
let google: TestGoogleDrive;
beforeAll(async () => {
  storage = await startTestStorage(dataDir);
  dav = await TestWebDav.start([USER]);
  graph = await TestGraph.start();
  google = await TestGoogleDrive.start();
  for (let i = 0; i < FILES; i++) {
    graph.put(`Archiv/Protokoll ${i}.txt`, `Anlage ${i} wurde im Quartal ${i % 4} gewartet.`);
    google.put(`Archiv/Protokoll ${i}.txt`, `Anlage ${i} wurde in Woche ${i % 52} gereinigt.`);
  }
  mkdirSync(join(dav.root, 'Archiv'));
  for (let i = 0; i < FILES; i++)
    writeFileSync(
      join(dav.root, 'Archiv', `Protokoll ${i}.txt`),
      `Anlage ${i} wurde im Monat ${i % 12} geprüft.`,
    );
});
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await storage?.close();
  await dav?.stop();
  await graph?.stop();
  await google?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A server on `port` with the data folder `dir` (each test has its own: they run side by side). */
const start = async (port: number, dir: string) => {
  const proc = spawnServer([], {
    ...(await engineEnv(dir)),
    ...storage.env,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    PORT: String(port),
    ADMIN_PASSWORD: 'admin-pass-1',
    OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${dav.port},127.0.0.1:${graph.port},127.0.0.1:${google.port}`,
  });
  running.push(proc);
  return proc;
};

/** A data manager's client, signed in on the server at `port`, with a division of their own. */
async function dataManagerAt(port: number) {
  const client = new ApiClient(`http://127.0.0.1:${port}`);
  const body = registration({ language: 'en' });
  expect((await client.post('/auth/register', body)).status).toBe(201);
  expect(
    (await client.post('/auth/login', { email: body.email, password: body.password, area: 'user' })).status,
  ).toBe(200);
  const divisionId = (await client.post('/divisions', { name: 'Archiv' })).body.id as string;
  return { client, divisionId };
}

/**
 * Kills the whole server (API and worker) once the connector's sync has taken some files, not all, starts it again
 * and waits for the sync to end: nothing is left running, no file is there twice, what was added before the kill is
 * not added again.
 */
async function killMidSync(
  port: number,
  dir: string,
  first: Proc,
  client: ApiClient,
  id: string,
  divisionId: string,
) {
  let during = (await client.get(`/connectors/${id}`)).body;
  const until = Date.now() + 90_000;
  while (during.fileCount === 0) {
    if (Date.now() > until) throw new Error(`no file synced: ${JSON.stringify(during)}`);
    await new Promise((r) => setTimeout(r, 20));
    during = (await client.get(`/connectors/${id}`)).body;
  }
  first.child.kill('SIGKILL');
  await first.exited;
  expect(during.syncState).toBe('running');
  expect(during.fileCount).toBeLessThan(FILES);

  const second = await start(port, dir);
  await second.waitFor('is running at');
  const deadline = Date.now() + 240_000;
  let after = (await client.get(`/connectors/${id}`)).body;
  while (after.syncState !== 'idle' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    after = (await client.get(`/connectors/${id}`)).body;
  }
  expect(after.syncState).toBe('idle');
  expect(after.lastError).toBeNull();
  expect(after.fileCount).toBe(FILES);
  // The retry took over where the killed sync stopped: what it had added was not added again.
  expect(after.lastResult.added).toBe(FILES - during.fileCount);
  const list = (await client.get(`/divisions/${divisionId}/files?pageSize=100`)).body.items as Array<{
    source: { path: string };
  }>;
  expect(new Set(list.map((f) => f.source.path)).size).toBe(FILES);
  await second.stop();
}

/**
 * The operator signed in at `port` for the first time (each test's server has a database of its own): the sign-in
 * enrols the second factor, as their authenticator app would, and enters its first code.
 */
async function operatorAt(port: number) {
  const operator = new ApiClient(`http://127.0.0.1:${port}`);
  const login = await operator.post('/auth/login', {
    email: 'admin@werkwissen.example',
    password: 'admin-pass-1',
    area: 'admin',
  });
  expect(login.body.secondFactor).toBe('enrol');
  const secret = (await operator.post('/auth/two-factor/enrolment')).body.secret as string;
  expect(
    (await operator.post('/auth/two-factor/verify', { code: totpCode(secret, Date.now()) })).status,
  ).toBe(200);
  return operator;
}

/** A server started on a free port with a data folder (database) of its own, named `name`. */
async function startedIn(name: string) {
  const dir = join(dataDir, name);
  const port = await freePort();
  const first = await start(port, dir);
  await first.waitFor('is running at');
  return { dir, port, first };
}

/** `killMidSync` for a cloud connector: the operator sets up the provider's app, the data manager consents. */
async function killConsentedMidSync(kind: 'microsoft365' | 'googledrive', appPath: string, app: unknown) {
  const { dir, port, first } = await startedIn(kind);
  const operator = await operatorAt(port);
  expect((await operator.request('PUT', appPath, app)).status).toBe(200);
  const { client, divisionId } = await dataManagerAt(port);
  const created = await connectByConsent(client, kind, divisionId, { name: 'Archiv', folder: 'Archiv' });
  expect(created.status).toBe(201);
  await killMidSync(port, dir, first, client, created.body.id, divisionId);
}

/**
 * Each test has a server, a data folder (database) and a source double of its own. They run one after the other on
 * both engines: side by side on PostgreSQL, their six server starts at once on CI's two cores (beside the other
 * passes) took longer than the tests' time. A test allows two starts (START_WAIT_MS each), the sync and its retry.
 */
const CRASH_TEST_MS = 2 * START_WAIT_MS + 360_000;
describe('a connector sync killed with its server', () => {
  it(
    'finishes a sync after the server is killed mid-sync, leaving nothing running and no file twice',
    async () => {
      const { dir, port, first } = await startedIn('webdav');
      const { client, divisionId } = await dataManagerAt(port);
      const created = await client.post(`/divisions/${divisionId}/connectors`, {
        kind: 'webdav',
        name: 'NAS',
        url: dav.url,
        userName: USER.user,
        password: USER.pass,
        folder: 'Archiv',
      });
      expect(created.status).toBe(201);
      await killMidSync(port, dir, first, client, created.body.id, divisionId);
    },
    CRASH_TEST_MS,
  );

  it(
    'finishes a Microsoft 365 sync after the kill too: the stored delta link and items carry it over',
    async () => {
      await killConsentedMidSync('microsoft365', '/admin/microsoft-app', graph.app);
    },
    CRASH_TEST_MS,
  );

  it(
    'finishes a Google Drive sync after the kill too: the stored page token and items carry it over',
    async () => {
      await killConsentedMidSync('googledrive', '/admin/google-app', google.app);
    },
    CRASH_TEST_MS,
  );
});
