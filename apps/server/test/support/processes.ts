import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

export const serverDir = fileURLToPath(new URL('../../', import.meta.url));

/**
 * How long a spawned server may take to say something (by default, that it is running). A start costs about 9.5 s of
 * CPU (the server's modules and the embedded database's WebAssembly; measured on an idle 2-core machine, where it takes
 * 8.7 s), and on CI's two cores beside the other passes (load 12 to 16) a process gets a small share of a core: runs
 * there took over 60 s. A server that never starts still fails, later.
 */
export const START_WAIT_MS = 180_000;

/**
 * What every test server, spawned or in the test's process, runs with. Its embedded database does not optimise its
 * WebAssembly (EMBEDDED_DATABASE_OPTIMIZE): a test's database lives seconds, and the optimising compiler's start cost
 * more than twice the CPU of a PGlite start (measured: 6 s of CPU and 660 MB against 2.3 s and 290 MB), paid by each of
 * the suite's hundreds of servers on CI's two cores. Most test servers read no document, so their parser processes
 * start with the first one (PARSER_WARM_START; parser-pool.test.ts starts them with a server): warmed, the two parser
 * processes of every spawned server loaded pdf.js, 77 processes of about a second of CPU each in a full run.
 */
export const TEST_SERVER_ENV = { EMBEDDED_DATABASE_OPTIMIZE: 'false', PARSER_WARM_START: 'false' };

export interface Proc {
  child: ChildProcess;
  output: () => string;
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * Spawns a server program (`src/main.ts` by default, relative to `cwd`, the server's folder by default) with its own
 * environment, collecting its output.
 */
export function spawnServer(
  args: string[],
  env: Record<string, string>,
  entry = 'src/main.ts',
  cwd = serverDir,
  /** In a process group of its own (as a service manager starts it), so that a signal can reach the whole group. */
  ownGroup = false,
): Proc {
  // Node's compile cache when the run has one (scripts/test.mjs): a server evaluates about a thousand modules.
  const compileCache = process.env.NODE_COMPILE_CACHE;
  const child = spawn(process.execPath, [entry, ...args], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...(compileCache ? { NODE_COMPILE_CACHE: compileCache } : {}),
      ...TEST_SERVER_ENV,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownGroup,
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    async waitFor(text, timeoutMs = START_WAIT_MS) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (typeof text === 'string' ? out.includes(text) : text.test(out)) return;
        if (child.exitCode !== null)
          throw new Error(`process exited (${child.exitCode}) before "${text}":\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`timed out waiting for "${text}":\n${out}`);
    },
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Whether nothing listens on a loopback port: it is bound for a moment and let go. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A loopback port for a server a test starts, below Linux's ephemeral range (32768-60999): a port the system handed
 * out (listen on 0) could be given to another process's outgoing connection before the server took it (EADDRINUSE
 * under a busy run, with the two engines' passes side by side); only a listener can take one of these.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await portIsFree(port)) return port;
  }
  throw new Error('no free loopback port between 20000 and 32000');
}

/** Waits until a server a test started (`what`, for the error) accepts connections on a loopback port. */
export async function listening(port: number, deadline: number, what: string): Promise<void> {
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not listen on ${port}`);
}

/**
 * The processes and temporary folders of a test file's tests: `start` spawns a server program quietly on loopback,
 * `tempDir` makes a folder, `onCleanup` adds a step; after each test the processes stop, then the steps run and the
 * folders go.
 */
export function processesPerTest(prefix: string) {
  const running: Proc[] = [];
  const dirs: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    for (const cleanup of cleanups.splice(0)) await cleanup();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return {
    tempDir() {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    start(args: string[], env: Record<string, string>, entry?: string, ownGroup = false) {
      const proc = spawnServer(
        args,
        { LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
        entry,
        serverDir,
        ownGroup,
      );
      running.push(proc);
      return proc;
    },
    onCleanup(cleanup: () => Promise<unknown>) {
      cleanups.push(cleanup);
    },
  };
}
