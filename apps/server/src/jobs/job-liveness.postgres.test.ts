import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TestServer } from '../../test/support/test-server.ts';
import { defineJob } from './job-definition.ts';
import { JobLiveness } from './job-liveness.ts';
import { JobQueue } from './job-queue.ts';

// Sessions ending with their process is what a PostgreSQL server does; the embedded PGlite has one session.
let t: TestServer;
const silent = pino({ level: 'silent' });
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

const step = defineJob({
  name: 'test.held',
  schema: z.object({}),
  retryLimit: 2,
  retryDelaySeconds: 1,
  expireInSeconds: 600,
  async handler() {},
});

const state = async (id: string) =>
  (await t.server.ctx.pool.query('select state from pgboss.job where id = $1', [id])).rows[0].state as string;

it('leaves a job its worker still holds, and takes it back as soon as that worker is gone', async () => {
  const queue = new JobQueue(t.server.databaseUrl, [step], silent, { worker: false, shared: true });
  await queue.start();
  const otherWorker = new JobLiveness(t.server.databaseUrl, silent);
  await otherWorker.start();
  let finish!: () => void;
  try {
    const id = (await queue.send(step, {}))!;
    // Another worker fetched it a minute ago and is still running it (its expiry is 10 minutes).
    await t.server.ctx.pool.query(
      "update pgboss.job set state = 'active', started_on = now() - interval '1 minute' where id = $1",
      [id],
    );
    const running = otherWorker.hold(id, () => new Promise<void>((resolve) => (finish = resolve)));
    await new Promise((r) => setTimeout(r, 200));
    expect(await queue.recoverOrphans(t.server.ctx.pool, false)).toBe(0);
    expect(await state(id)).toBe('active');

    // The worker's process dies: its session ends, and its locks with it (no unlock is sent).
    await otherWorker.stop();
    expect(await queue.recoverOrphans(t.server.ctx.pool, false)).toBe(1);
    expect(await state(id)).toBe('retry');
    finish();
    await running;
  } finally {
    await otherWorker.stop();
    await queue.stop();
  }
});

it('leaves a job alone in the moment between its fetch and its lock', async () => {
  const queue = new JobQueue(t.server.databaseUrl, [step], silent, { worker: false, shared: true });
  await queue.start();
  try {
    const id = (await queue.send(step, {}))!;
    await t.server.ctx.pool.query(
      "update pgboss.job set state = 'active', started_on = now() where id = $1",
      [id],
    );
    expect(await queue.recoverOrphans(t.server.ctx.pool, false)).toBe(0);
  } finally {
    await queue.stop();
  }
});
