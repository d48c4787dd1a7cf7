import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { plannerArgs } from './planner-settings.ts';
import * as schema from './schema/index.ts';

export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle; services accept `Db | Tx` so that callers can compose them. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Opens the pool; the same code serves the embedded PGlite and a real PostgreSQL. */
export function openDatabase(url: string, max = 10): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    options: plannerArgs().join(' '),
  });
  pool.on('error', () => {
    // A dropped idle connection is replaced by the pool; the readiness check reports a lasting outage.
  });
  const db = drizzle(pool, { schema });
  return { pool, db, close: () => pool.end() };
}

/** Applies the committed Drizzle migrations; refuses a PostgreSQL without pgvector with a clear message. */
export async function applyMigrations(database: Database): Promise<void> {
  const available = await database.pool.query("select 1 from pg_available_extensions where name = 'vector'");
  if (available.rowCount === 0) {
    throw new Error(
      'The database has no pgvector extension: install pgvector (>= 0.8) on this PostgreSQL server.',
    );
  }
  await migrate(database.db, { migrationsFolder });
}
