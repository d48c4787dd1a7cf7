import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.ts';
import { makeDocx, waitForFile } from './support/documents.ts';
import { freePort, type Proc, spawnServer } from './support/processes.ts';
import { SmtpSink } from './support/smtp-sink.ts';
import { stream } from './support/sse.ts';
import { createTestDatabase, postgresSecrets, type TestDatabase } from './support/test-database.ts';
import { registration } from './support/test-server.ts';

/*
 * The deployment of compose.yaml without containers (no Docker engine runs here): the files the Dockerfile copies
 * into its image, its production install (scripts/production-install.sh), and its entry point, as one API and two
 * workers on one PostgreSQL sharing one files folder.
 */
const repo = fileURLToPath(new URL('../../../', import.meta.url));
/** What the image's final stage holds, as its COPY lines list it. */
const IMAGE_FILES = [
  'package.json',
  'package-lock.json',
  'apps/server/package.json',
  'apps/web/package.json',
  'packages/shared/package.json',
  'scripts/production-install.sh',
  'scripts/node.sh',
  'packages/shared/src',
  'apps/server/src',
  'apps/server/drizzle',
  'apps/web/dist',
];
const ENTRY = 'apps/server/src/main.ts';

const app = mkdtempSync(join(tmpdir(), 'ww-image-'));
const files = mkdtempSync(join(tmpdir(), 'ww-volume-'));
const running: Proc[] = [];
const smtp = new SmtpSink();
let database: TestDatabase;

beforeAll(async () => {
  if (!existsSync(join(repo, 'apps/web/dist/index.html')))
    throw new Error('The web app is not built: run "npm run build" (npm test does it first)');
  for (const path of IMAGE_FILES) {
    mkdirSync(dirname(join(app, path)), { recursive: true });
    cpSync(join(repo, path), join(app, path), {
      recursive: true,
      // .dockerignore keeps the tests out of the image.
      filter: (source) => !source.endsWith('.test.ts'),
    });
  }
  execFileSync('sh', ['scripts/production-install.sh'], { cwd: app, stdio: 'pipe', timeout: 600_000 });
  database = await createTestDatabase();
}, 660_000);

afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await smtp.stop();
  await database?.drop();
  rmSync(files, { recursive: true, force: true });
  // The image's production install is some 18,000 files (200 MB): with the other passes writing beside this one, a
  // synchronous removal took minutes (CI's hook timeout). Nothing waits for it, so it runs on its own.
  spawn('rm', ['-rf', app], { detached: true, stdio: 'ignore' }).unref();
});

it('installs without development packages, and its API and two workers process an upload once and answer', async () => {
  expect(existsSync(join(app, 'node_modules/vitest'))).toBe(false);
  expect(existsSync(join(app, 'node_modules/vite'))).toBe(false);

  const env = {
    NODE_ENV: 'production',
    DATABASE_URL: database.url,
    ...postgresSecrets,
    DATA_DIR: files,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ADMIN_PASSWORD: 'admin-pass-1',
    SMTP_URL: await smtp.start(),
  };
  const port = await freePort();
  const start = (role: string, extra: Record<string, string> = {}) => {
    const proc = spawnServer([`--role=${role}`], { ...env, ...extra }, ENTRY, app);
    running.push(proc);
    return proc;
  };
  const api = start('api', { PORT: String(port) });
  await api.waitFor('is running at', 120_000);
  const workers = [start('worker'), start('worker')];
  await Promise.all(workers.map((w) => w.waitFor('worker is running', 120_000)));

  const client = new ApiClient(`http://127.0.0.1:${port}`);
  // The built web app is served.
  const page = await fetch(`http://127.0.0.1:${port}/login`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<div id="root"');

  const body = registration({ language: 'de' });
  expect((await client.post('/auth/register', body)).status).toBe(201);
  expect(
    (await client.post('/auth/login', { email: body.email, password: body.password, area: 'user' })).status,
  ).toBe(200);
  const divisionId = (await client.post('/divisions', { name: 'Heizung' })).body.id as string;
  const chatId = (await client.post('/chats', { name: 'Fragen', divisionIds: [divisionId] })).body
    .id as string;
  const manual =
    'Der Heizkörper wird mit einem Vierkantschlüssel entlüftet. Danach muss der Wasserdruck auf 1,5 bar geprüft werden.';
  const up = await client.upload(`/divisions/${divisionId}/files`, [
    { name: 'Wartung.docx', content: await makeDocx([{ heading: 'Wartung' }, { text: manual }]) },
  ]);
  const fileId = up.body.results[0].file.id as string;
  const file = await waitForFile(client, fileId, ['ready', 'failed'], 120_000);
  expect(file.status).toBe('ready');

  // Each processing step ran once, on one of the two workers, and the ready mail went out once.
  // pg-boss marks a job completed a moment after its handler has published the file.
  let jobs = await jobsOf(fileId);
  for (let i = 0; i < 100 && jobs.some((j) => j.state === 'active'); i++) {
    await new Promise((r) => setTimeout(r, 100));
    jobs = await jobsOf(fileId);
  }
  expect(jobs.map((j) => j.name).sort()).toEqual(['file.extract', 'file.index']);
  for (const job of jobs) expect(job).toMatchObject({ state: 'completed', retry_count: 0 });
  const ready = await smtp.waitFor(
    (m) => m.to.includes(body.email) && m.subject.includes('wurde verarbeitet'),
    60_000,
  );
  await new Promise((r) => setTimeout(r, 2000));
  expect(smtp.mails.filter((m) => m.emailId === ready.emailId)).toHaveLength(1);

  const answer = await stream(client, `/chats/${chatId}/messages`, {
    content: 'Womit wird der Heizkörper entlüftet?',
  });
  expect(answer.status).toBe(200);
  expect(answer.text()).toContain('Vierkantschlüssel');
  expect(answer.events.find((e) => e.event === 'citation')?.data).toMatchObject({
    fileId,
    fileName: 'Wartung.docx',
  });
}, 300_000);

async function jobsOf(fileId: string) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; state: string; retry_count: number }>(
      "select name, state, retry_count from pgboss.job where data->>'fileId' = $1",
      [fileId],
    );
    return rows;
  } finally {
    await client.end();
  }
}
