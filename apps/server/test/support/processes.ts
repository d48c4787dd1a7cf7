import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const serverDir = fileURLToPath(new URL('../../', import.meta.url));

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
): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
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
    async waitFor(text, timeoutMs = 60_000) {
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

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}
