/**
 * The embedded database: PGlite with pgvector, served over the PostgreSQL wire protocol by pglite-socket on a
 * loopback port, so that the app talks to it with the ordinary `pg` driver exactly as to a real server. Runs in
 * its own process because PGlite executes queries on the calling thread.
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { plannerArgs } from '../planner-settings.ts';
import { serializeExchanges } from './serialized-queue.ts';

export interface PgliteServerHandle {
  port: number;
  stop(): Promise<void>;
}

/**
 * PGlite's default start parameters turn fsync off (`-F`); the embedded default keeps it on. The planner settings
 * are start parameters here: PGlite's one session ignores a client's start-up options.
 */
export function durableStartParams(): string[] {
  return [...PGlite.defaultStartParams.filter((p) => p !== '-F'), ...plannerArgs()];
}

export async function startPgliteServer(dataDir: string, port: number): Promise<PgliteServerHandle> {
  const db = await PGlite.create({ dataDir, extensions: { vector }, startParams: durableStartParams() });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 64 });
  serializeExchanges(server);
  await server.start();
  const actualPort = Number(server.getServerConn().split(':').pop());
  let stopped = false;
  return {
    port: actualPort,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
    },
  };
}

/**
 * Entry point when forked by the server: reports its port, and stops when the server (its parent) tells it to, last
 * in its shutdown, or goes away. SIGINT and SIGTERM are ignored: Ctrl+C reaches the whole process group and systemd
 * sends SIGTERM to every process of the service, and stopping on them would take the database away from a server
 * that is still finishing its requests and jobs.
 */
async function runAsChild(): Promise<void> {
  const dataDir = process.env.PGLITE_DATA_DIR;
  if (!dataDir || !process.send) throw new Error('pglite-process must be forked with PGLITE_DATA_DIR');
  const handle = await startPgliteServer(dataDir, Number(process.env.PGLITE_PORT ?? 0));
  const stop = async () => {
    // The process exits either way, and the engine's files are flushed by its own stop or not at all.
    await handle.stop().catch(() => {});
    process.exit(0);
  };
  process.on('disconnect', stop);
  process.on('SIGTERM', () => {});
  process.on('SIGINT', () => {});
  process.on('message', (m) => {
    if (m === 'stop') void stop();
  });
  process.send({ type: 'ready', port: handle.port });
}

if (process.env.PGLITE_CHILD === '1') {
  runAsChild().catch((error: unknown) => {
    process.stderr.write(
      `embedded database failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  });
}
