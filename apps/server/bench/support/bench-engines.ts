import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedDatabase } from '../../src/db/embedded/embedded-database.ts';
import { postgresSecrets } from '../../test/support/test-database.ts';
import { flag } from './bench-kit.ts';

/** A database a benchmark writes its corpus into, on one engine. */
export interface BenchDatabase {
  url: string;
  stop(): Promise<void>;
  /** PGlite: only one process may open the folder, so stop it before a server opens it. */
  exclusive: boolean;
  /** What a server started with the same data folder needs to open this database (DATABASE_URL and secrets). */
  serverEnv: Record<string, string>;
}

export interface BenchEngine {
  name: 'PGlite' | 'PostgreSQL';
  /** A fresh database: an embedded PGlite in `dir`, or a new database on the PostgreSQL server. */
  open(dir: string, onDeath: (message: string) => void): Promise<BenchDatabase>;
  /**
   * The database of a server that will be started on the data folder `dir`: nothing to prepare on PGlite (the
   * server starts its embedded database there), a new database on the PostgreSQL server.
   */
  serverDatabase(dir: string): Promise<Pick<BenchDatabase, 'serverEnv' | 'stop'>>;
}

const pglite: BenchEngine = {
  name: 'PGlite',
  async open(dir, onDeath) {
    const embedded = await startEmbeddedDatabase(dir, (code, signal) =>
      onDeath(`the embedded database exited (code ${code}, signal ${signal})`),
    );
    return { url: embedded.url, stop: () => embedded.stop(), exclusive: true, serverEnv: {} };
  },
  async serverDatabase() {
    return { serverEnv: {}, stop: async () => {} };
  },
};

/** A PostgreSQL server given by a superuser URL: each run gets a database of its own, dropped afterwards. */
function postgres(serverUrl: string): BenchEngine {
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const engine: BenchEngine = {
    name: 'PostgreSQL',
    async open() {
      const name = `ww_bench_${randomBytes(8).toString('hex')}`;
      await admin(`create database ${name}`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        stop: () => admin(`drop database if exists ${name} with (force)`),
        exclusive: false,
        serverEnv: { DATABASE_URL: url.toString(), ...postgresSecrets },
      };
    },
    serverDatabase: () => engine.open('', () => {}),
  };
  return engine;
}

/**
 * The engines of this run: always the embedded PGlite (the default), and the PostgreSQL server of
 * `--database-url=postgres://user@host:port/db` (a user that may create databases) when given, so that one run
 * prints both side by side. `--engines=postgres` (or `pglite`) keeps one of them, for a quicker look at one engine.
 */
export function benchEngines(): BenchEngine[] {
  // The test servers a benchmark starts read it (test/support/test-database.ts): each would get a database on that
  // PostgreSQL, and the "PGlite" figures would be PostgreSQL's, or, where the server opens a corpus written into its
  // data folder, the server would find none of it.
  if (process.env.TEST_DATABASE_URL)
    throw new Error(
      'TEST_DATABASE_URL is set: the benchmark\'s "PGlite" servers would run on that PostgreSQL. Unset it ' +
        '(env -u TEST_DATABASE_URL npm run bench:...) and give PostgreSQL with --database-url=postgres://...',
    );
  const url = flag('database-url');
  if (url !== undefined && !/^postgres(ql)?:\/\//.test(url))
    throw new Error(`invalid --database-url: ${url} (postgres://...)`);
  const all = url ? [pglite, postgres(url)] : [pglite];
  const only = flag('engines')?.toLowerCase().split(',');
  if (!only) return all;
  const kept = all.filter((e) => only.some((o) => o && e.name.toLowerCase().startsWith(o)));
  if (kept.length === 0)
    throw new Error(`--engines=${only.join(',')} keeps none of ${all.map((e) => e.name)}`);
  return kept;
}
