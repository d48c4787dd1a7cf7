import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { normaliseStoredPhones } from './normalise-phones.ts';
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

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: () => void,
) => void;

/**
 * A pool that tells how long each caller waited for a connection (queries take theirs through `connect` too), for
 * the pool-wait metric: a measurement per checkout, no extra round trip.
 */
class TimedPool extends pg.Pool {
  private readonly onAcquire: (seconds: number) => void;
  constructor(config: pg.PoolConfig, onAcquire: (seconds: number) => void) {
    super(config);
    this.onAcquire = onAcquire;
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's overloads (promise or callback) in one implementation
  override connect(callback?: ConnectCallback): any {
    const started = performance.now();
    const took = () => this.onAcquire((performance.now() - started) / 1000);
    if (callback)
      return super.connect((error, client, done) => {
        if (!error) took();
        callback(error, client, done);
      });
    return super.connect().then((client) => {
      took();
      return client;
    });
  }
}

/**
 * Opens the pool; the same code serves the embedded PGlite and a real PostgreSQL. `onAcquire` hears how long each
 * connection checkout waited.
 */
export function openDatabase(url: string, max = 10, onAcquire?: (seconds: number) => void): Database {
  const config = { connectionString: url, max, idleTimeoutMillis: 30_000, options: plannerArgs().join(' ') };
  const pool = onAcquire ? new TimedPool(config, onAcquire) : new pg.Pool(config);
  pool.on('error', () => {
    // A dropped idle connection is replaced by the pool; the readiness check reports a lasting outage.
  });
  const db = drizzle(pool, { schema });
  return { pool, db, close: () => pool.end() };
}

/**
 * Applies the committed Drizzle migrations, then the data step SQL cannot do (phone numbers into E.164 with
 * libphonenumber-js); refuses a PostgreSQL without pgvector with a clear message.
 */
export async function applyMigrations(database: Database): Promise<void> {
  const available = await database.pool.query("select 1 from pg_available_extensions where name = 'vector'");
  if (available.rowCount === 0) {
    throw new Error(
      'The database has no pgvector extension: install pgvector (>= 0.8) on this PostgreSQL server.',
    );
  }
  await migrate(database.db, { migrationsFolder });
  await normaliseStoredPhones(database.db);
}
