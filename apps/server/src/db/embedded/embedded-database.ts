import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const childEntry = fileURLToPath(new URL('./pglite-process.ts', import.meta.url));

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite in a child process and returns its connection URL. The child stops with the server; if it dies on
 * its own, `onUnexpectedExit` is called so that the server stops instead of serving without its data. `optimize`
 * (EMBEDDED_DATABASE_OPTIMIZE): false keeps PostgreSQL's WebAssembly on V8's baseline compiler (`--liftoff-only`),
 * which starts on less than half the CPU and memory and answers queries about a third slower.
 */
export async function startEmbeddedDatabase(
  dataDir: string,
  onUnexpectedExit: (code: number | null, signal: NodeJS.Signals | null) => void,
  { optimize = true }: { optimize?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const pgdata = join(dataDir, 'pgdata');
  mkdirSync(pgdata, { recursive: true });
  const child: ChildProcess = fork(childEntry, [], {
    env: { ...process.env, PGLITE_CHILD: '1', PGLITE_DATA_DIR: pgdata, PGLITE_PORT: '0' },
    execArgv: optimize ? [] : ['--liftoff-only'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let stopping = false;
  const port = await new Promise<number>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`embedded database exited during start (code ${code})`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.on('message', (m: unknown) => {
      const msg = m as { type?: string; port?: number };
      if (msg?.type === 'ready' && msg.port) {
        child.off('exit', onExit);
        resolve(msg.port);
      }
    });
  });
  child.once('exit', (code, signal) => {
    if (!stopping) onUnexpectedExit(code, signal);
  });
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      if (stopping || child.exitCode !== null) return;
      stopping = true;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.send('stop');
      });
    },
  };
}
