import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { applyMigrations, openDatabase } from '../../src/db/database.ts';
import { startPgliteServer } from '../../src/db/embedded/pglite-process.ts';
import { ALL_JOBS } from '../../src/job-registry.ts';
import type { AnyJobDefinition } from '../../src/jobs/job-definition.ts';
import { JobQueue } from '../../src/jobs/job-queue.ts';

/**
 * The migrated database every test server starts from. Migrating per server was most of a server's start on PGlite
 * (a fresh data folder runs initdb in WebAssembly, then every migration and pg-boss's schema): the global setup
 * (`global-setup.ts`) builds it once, and each test server starts from a copy of its own, so that no test sees
 * another's rows. On PGlite it is a closed data folder, copied per server; on PostgreSQL a database that only serves
 * as a template (`CREATE DATABASE ... TEMPLATE`). It holds what a server's first start makes of an empty database
 * before its seeds: the migrations and the job queue's schema and queues. Its name carries a hash of the migrations,
 * of the engine and job queue versions and of this file: a change to any of them builds a new one.
 */
export const PGLITE_TEMPLATE_ENV = 'WW_TEST_PGLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_ENV = 'WW_TEST_POSTGRES_TEMPLATE';

const serverDir = fileURLToPath(new URL('../../', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .sort();
}

function packageVersion(name: string): string {
  for (let dir = serverDir; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed`);
  }
}

/**
 * Changes with the migration folder, the job queues the template holds (each job's queue settings and schedule), the
 * versions of PGlite, pgvector's build for it and pg-boss, and this file.
 */
export function templateKey(
  migrations = join(serverDir, 'drizzle'),
  jobs: readonly AnyJobDefinition[] = ALL_JOBS,
): string {
  const hash = createHash('sha256');
  for (const file of filesUnder(migrations))
    hash.update(relative(migrations, file)).update('\0').update(readFileSync(file)).update('\0');
  for (const job of jobs) {
    const { name, policy, retryLimit, retryDelaySeconds, expireInSeconds, cron } = job;
    hash.update(`${JSON.stringify([name, policy, retryLimit, retryDelaySeconds, expireInSeconds, cron])}\0`);
  }
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const name of ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', 'pg-boss'])
    hash.update(`${name}@${packageVersion(name)}\0`);
  return hash.digest('hex').slice(0, 16);
}

/** Migrates the database at `url` and creates the job queue's schema and queues, as a server's first start does. */
async function migrate(url: string): Promise<void> {
  const database = openDatabase(url, 1);
  try {
    await applyMigrations(database);
  } finally {
    await database.close();
  }
  const jobs = new JobQueue(url, ALL_JOBS, pino({ level: 'silent' }), { worker: false, shared: false });
  await jobs.start();
  await jobs.stop();
}

/**
 * A test database's buffer pool: PGlite sets up the default 128 MB (initdb's) in WebAssembly memory at
 * every start, which was 0.45 of a start's 1.2 CPU-seconds and 120 of its 270 MB. A test database holds a few MB;
 * each of the suite's few hundred test servers and spawned servers starts one. The product's data folders keep
 * initdb's setting.
 */
const TEST_BUFFERS =
  '\n# Test databases are small (test/support/database-template.ts).\nshared_buffers = 16MB\n';

/** Templates not used for this long are removed (each run touches the one it uses). */
const STALE_MS = 3 * 24 * 3600_000;

/**
 * The folder holding the migrated `pgdata` of PGlite for this key, built when missing (into a folder of its own,
 * then renamed into place, so that a run side by side never sees half of one). PGlite runs in this process to build
 * it, so that it is closed cleanly however long that takes (a forked one is killed after a grace period, which would
 * leave every copy to recover a crashed database).
 */
export async function ensurePgliteTemplate(): Promise<string> {
  const name = `ww-test-template-${templateKey()}`;
  const folder = join(tmpdir(), name);
  for (const other of readdirSync(tmpdir()).filter((n) => n.startsWith('ww-test-template-') && n !== name)) {
    const path = join(tmpdir(), other);
    // Another run may remove it meanwhile.
    const modified = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    if (Date.now() - modified > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
  if (existsSync(join(folder, 'pgdata', 'PG_VERSION'))) {
    const now = new Date();
    utimesSync(folder, now, now);
    return join(folder, 'pgdata');
  }
  const building = mkdtempSync(join(tmpdir(), 'ww-test-template-build-'));
  try {
    const pgdata = join(building, 'pgdata');
    mkdirSync(pgdata);
    const pglite = await startPgliteServer(pgdata, 0);
    try {
      await migrate(`postgres://postgres:postgres@127.0.0.1:${pglite.port}/postgres`);
    } finally {
      await pglite.stop();
    }
    appendFileSync(join(pgdata, 'postgresql.conf'), TEST_BUFFERS);
    try {
      renameSync(building, folder);
    } catch (error) {
      // Another run built the same template meanwhile: theirs is as good.
      if (!existsSync(join(folder, 'pgdata', 'PG_VERSION'))) throw error;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return join(folder, 'pgdata');
}

/** Gives a server's data folder its own copy of the PGlite template, unless it already has a database. */
export function seedPgliteDataDir(dataDir: string, template: string): void {
  const pgdata = join(dataDir, 'pgdata');
  if (!existsSync(pgdata)) cpSync(template, pgdata, { recursive: true });
}

async function onServer<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, name: string): string {
  const result = new URL(url);
  result.pathname = `/${name}`;
  return result.toString();
}

/**
 * The template database on the test PostgreSQL at `url` for this key, built when missing. It accepts no
 * connections: `CREATE DATABASE ... TEMPLATE` refuses a template somebody is connected to.
 */
export async function ensurePostgresTemplate(url: string): Promise<string> {
  const name = `ww_template_${templateKey()}`;
  const exists = await onServer(url, (client) =>
    client.query('select 1 from pg_database where datname = $1', [name]),
  );
  if (exists.rowCount !== 0) return name;
  const building = `ww_template_build_${randomBytes(6).toString('hex')}`;
  await onServer(url, (client) => client.query(`create database ${building}`));
  try {
    await migrate(withDatabase(url, building));
    await onServer(url, async (client) => {
      await client.query(`alter database ${building} rename to ${name}`);
      await client.query(`alter database ${name} with is_template true allow_connections false`);
    });
  } catch (error) {
    const built = await onServer(url, (client) =>
      client.query('select 1 from pg_database where datname = $1', [name]),
    );
    // Another run built the same template meanwhile: theirs is as good.
    if (built.rowCount === 0) throw error;
  } finally {
    await onServer(url, (client) => client.query(`drop database if exists ${building} with (force)`));
  }
  return name;
}
