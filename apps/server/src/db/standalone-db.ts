/**
 * `npm run db`: a standalone PGlite server on a loopback port, so that the API and worker roles can run as
 * separate processes against one DATABASE_URL on a machine without PostgreSQL.
 */
import { join, resolve } from 'node:path';
import { acquireDataDirLock } from './embedded/data-dir-lock.ts';
import { startPgliteServer } from './embedded/pglite-process.ts';

const dataDir = resolve(process.env.DATA_DIR ?? './data');
const port = Number(process.env.DB_PORT ?? 5433);
const release = acquireDataDirLock(dataDir);
const handle = await startPgliteServer(join(dataDir, 'pgdata'), port);
const url = `postgres://postgres:postgres@127.0.0.1:${handle.port}/postgres`;
process.stdout.write(`PGlite is serving ${dataDir} on 127.0.0.1:${handle.port}\nDATABASE_URL=${url}\n`);
const stop = async () => {
  await handle.stop();
  release();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
