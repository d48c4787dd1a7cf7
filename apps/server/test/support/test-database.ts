import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { applyMigrations, type Database, openDatabase } from '../../src/db/database.ts';
import { startEmbeddedDatabase } from '../../src/db/embedded/embedded-database.ts';
import { PGLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV, seedPgliteDataDir } from './database-template.ts';

/**
 * The PostgreSQL pass of the suite: with TEST_DATABASE_URL (a superuser on a throwaway cluster, see
 * scripts/test-postgres.sh) every test server gets a database of its own on that server instead of an embedded
 * PGlite. Without it, everything runs on PGlite.
 */
export const testPostgresUrl = process.env.TEST_DATABASE_URL || null;

export const onPostgres = testPostgresUrl !== null;

/** The engine the tests of this process run on, for test names and messages. */
export const engineName = onPostgres ? 'PostgreSQL' : 'PGlite';

export const TEST_SECRETS = {
  tokenSigningKey: 'test-signing-key-0123456789-0123456789-abcdef',
  encryptionKey: 'test-encryption-key-0123456789-0123456789-abc',
  altchaHmacKey: 'test-altcha-key-0123456789-0123456789-abcdefg',
};

/** With DATABASE_URL the configuration requires the secrets instead of generating them into the data folder. */
export const postgresSecrets = {
  TOKEN_SIGNING_KEY: TEST_SECRETS.tokenSigningKey,
  ENCRYPTION_KEY: TEST_SECRETS.encryptionKey,
  ALTCHA_HMAC_KEY: TEST_SECRETS.altchaHmacKey,
};

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function urlFor(name: string): string {
  const url = new URL(testPostgresUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testPostgresUrl! });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * A database on the test PostgreSQL. `key` names a database that outlives one server (a data folder reused by a
 * restart test): the same key gives the same database, created on first use. `migrated`: created as a copy of the
 * run's migrated template (database-template.ts) when the global setup made one, else empty.
 */
export async function createTestDatabase(
  key?: string,
  options: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  if (!testPostgresUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = key
    ? `ww_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`
    : `ww_${randomBytes(12).toString('hex')}`;
  const template = options.migrated ? process.env[POSTGRES_TEMPLATE_ENV] : undefined;
  await onServer(async (client) => {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0)
      await client.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  });
  return {
    url: urlFor(name),
    drop: () =>
      onServer((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

/**
 * A database for a test that opens its own connections: on the test PostgreSQL when there is one, else an embedded
 * PGlite in `dataDir` (started here, stopped by `close`), not optimised as no test database lives long enough to pay
 * for it (`TEST_SERVER_ENV`). `migrated`: see `createTestDatabase`.
 */
export async function engineDatabase(
  dataDir: string,
  options: { migrated?: boolean } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  if (onPostgres) {
    const database = await createTestDatabase(dataDir, options);
    return { url: database.url, close: () => database.drop() };
  }
  if (options.migrated) seedFromTemplate(dataDir);
  const embedded = await startEmbeddedDatabase(dataDir, () => {}, { optimize: false });
  return { url: embedded.url, close: () => embedded.stop() };
}

/**
 * A migrated database of this engine with one connection, for tests below the HTTP layer; `close` stops and removes
 * it.
 */
export async function migratedDatabase(
  prefix: string,
): Promise<{ database: Database; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const engine = await engineDatabase(dir, { migrated: true });
  const database = openDatabase(engine.url, 1);
  await applyMigrations(database);
  return {
    database,
    async close() {
      await database.close();
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Gives a PGlite data folder without a database a copy of the run's migrated template, when the global setup made
 * one (database-template.ts); without it, the server's start migrates an empty one.
 */
export function seedFromTemplate(dataDir: string): void {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (template) seedPgliteDataDir(dataDir, template);
}

/**
 * The environment that points a spawned server at this engine's database for `dataDir`: nothing on PGlite (the
 * server starts its embedded database in the folder), DATABASE_URL and the secrets on the test PostgreSQL. A new
 * database starts as a copy of the run's migrated template, as a test server's does.
 */
export async function engineEnv(dataDir: string): Promise<Record<string, string>> {
  if (!onPostgres) {
    seedFromTemplate(dataDir);
    return {};
  }
  const database = await createTestDatabase(dataDir, { migrated: true });
  return { DATABASE_URL: database.url, ...postgresSecrets };
}
