import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.ts';
import { freePort, processesPerTest, START_WAIT_MS } from './support/processes.ts';
import { seedFromTemplate } from './support/test-database.ts';
import { registration } from './support/test-server.ts';

const { start, tempDir } = processesPerTest('ww-proc-');

describe('start-up configuration', () => {
  it('stops with every violated rule listed at once', async () => {
    const proc = start([], {
      DATA_DIR: tempDir(),
      PORT: 'abc',
      APP_MODE: 'craft',
      PRIMARY_COLOR: 'orange',
      PAYMENTS_ENABLED: 'true',
    });
    expect(await proc.exited).toBe(1);
    const out = proc.output();
    expect(out).toContain('Environment validation error');
    for (const key of ['PORT', 'APP_MODE', 'PRIMARY_COLOR'])
      expect(out).toMatch(new RegExp(`^  - ${key}: `, 'm'));
  });

  it('reports the handwerk payment ids and the Stripe keys when payments are switched on', async () => {
    const proc = start([], { DATA_DIR: tempDir(), PAYMENTS_ENABLED: 'true' });
    expect(await proc.exited).toBe(1);
    const keys = proc
      .output()
      .split('\n')
      .filter((l) => l.startsWith('  - '))
      .map((l) => l.slice(4, l.indexOf(':')));
    expect(keys.sort()).toEqual([
      'STRIPE_30_DAY_PRODUCT_ID',
      'STRIPE_MONTHLY_PRICE_ID',
      'STRIPE_SECRET_KEY',
      'STRIPE_SIX_MONTH_PRICE_ID',
      'STRIPE_SIX_MONTH_PRODUCT_ID',
      'STRIPE_WEBHOOK_SECRET',
    ]);
    expect(proc.output()).toContain('STRIPE_SIX_MONTH_PRICE_ID: is required in handwerk mode');
  });

  it('refuses an unknown role', async () => {
    const proc = start(['--role=everything'], { DATA_DIR: tempDir() });
    expect(await proc.exited).toBe(2);
  });
});

/**
 * A data folder with a copy of the run's migrated template, as a test server's: the first test shows the start on an
 * empty one (initdb and every migration, the slowest start); the others are about what follows.
 */
function migratedDataDir(): string {
  const dir = tempDir();
  seedFromTemplate(dir);
  return dir;
}

// Each test starts whole servers (the first one in a fresh data folder, which migrates first); on 2 busy cores one
// start can take half a minute, so the restart test, which starts two, needs more than the default minute.
describe('embedded database', { timeout: 2 * START_WAIT_MS + 60_000 }, () => {
  it('starts with no configuration, prints the address and the setup link, and refuses a second server', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const first = start([], { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' });
    await first.waitFor('is running at');
    expect(first.output()).toContain(`is running at http://localhost:${port}`);
    expect(first.output()).toMatch(/one-time link: http:\/\/localhost:\d+\/setPassword\?token=/);
    const ready = await fetch(`http://127.0.0.1:${port}/api/v1/ready`);
    expect(ready.status).toBe(200);

    const second = start([], { DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is already using the data folder');
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status).toBe(200);
  });

  it('stops the server with a clear error when the database process dies', async () => {
    const port = await freePort();
    const server = start([], { DATA_DIR: migratedDataDir(), PORT: String(port) });
    await server.waitFor('is running at');
    const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(server.child.pid)]).toString();
    const childPid = /^\s*(\d+) .*pglite-process/m.exec(children)?.[1];
    expect(childPid, children).toMatch(/^\d+$/);
    process.kill(Number(childPid), 'SIGKILL');
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('embedded database stopped unexpectedly');
  });

  it('keeps its data across a restart', async () => {
    const dataDir = migratedDataDir();
    const port = await freePort();
    const first = start([], { DATA_DIR: dataDir, PORT: String(port), ADMIN_PASSWORD: 'admin-pass-1' });
    await first.waitFor('is running at');
    const body = registration();
    expect((await new ApiClient(`http://127.0.0.1:${port}`).post('/auth/register', body)).status).toBe(201);
    await first.stop();
    expect(await first.exited).toBe(0);
    const again = start([], { DATA_DIR: dataDir, PORT: String(port), ADMIN_PASSWORD: 'admin-pass-1' });
    await again.waitFor('is running at');
    const login = await new ApiClient(`http://127.0.0.1:${port}`).post('/auth/login', {
      email: body.email,
      password: body.password,
    });
    expect(login.status).toBe(200);
  });
});
