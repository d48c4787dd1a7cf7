import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TestServer } from '../../test/support/test-server.ts';
import { defineJob } from './job-definition.ts';
import { JobQueue } from './job-queue.ts';

let t: TestServer;
const silent = pino({ level: 'silent' });
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('condition not reached in time');
}

async function jobRow(id: string) {
  const { rows } = await t.server.ctx.pool.query(
    'select state, retry_count, output, start_after, started_on from pgboss.job where id = $1',
    [id],
  );
  return rows[0] as {
    state: string;
    retry_count: number;
    output: { message?: string } | null;
    start_after: Date;
  };
}

describe('jobs on pg-boss', () => {
  it('retries a failing job with backoff, keeps the last error, and completes it once', async () => {
    const attempts: number[] = [];
    const flaky = defineJob({
      name: 'test.flaky',
      schema: z.object({ n: z.number() }),
      retryLimit: 3,
      retryDelaySeconds: 1,
      expireInSeconds: 30,
      async handler(_data, _ctx, run) {
        attempts.push(run.retryCount);
        if (run.retryCount < 2) throw new Error(`boom ${run.retryCount + 1}`);
      },
    });
    const queue = new JobQueue(t.server.databaseUrl, [flaky as never], silent, {
      worker: true,
      shared: false,
    });
    await queue.start();
    try {
      const id = (await queue.send(flaky, { n: 1 }))!;
      await queue.work(t.server.ctx);
      const retried = await until(async () => {
        const row = await jobRow(id);
        return row.state === 'retry' ? row : undefined;
      });
      // The error of the attempt that just failed is kept on the job while it waits for its retry.
      expect(retried.output?.message).toBe(`boom ${attempts.at(-1)! + 1}`);
      expect(retried.start_after.getTime()).toBeGreaterThan(Date.now() - 1000);
      const done = await until(async () => {
        const row = await jobRow(id);
        return row.state === 'completed' ? row : undefined;
      });
      expect(done.retry_count).toBe(2);
      expect(attempts).toEqual([0, 1, 2]);
    } finally {
      await queue.stop();
    }
  });

  it('refuses a payload that does not match the job schema', async () => {
    const typed = defineJob({
      name: 'test.typed',
      schema: z.object({ fileId: z.uuid() }),
      retryLimit: 0,
      retryDelaySeconds: 1,
      expireInSeconds: 30,
      async handler() {},
    });
    const queue = new JobQueue(t.server.databaseUrl, [typed as never], silent, {
      worker: false,
      shared: false,
    });
    await queue.start();
    try {
      await expect(queue.send(typed, { fileId: 'nope' })).rejects.toThrow();
    } finally {
      await queue.stop();
    }
  });

  it('picks up work orphaned by a crash when a worker starts', async () => {
    const done: string[] = [];
    const step = defineJob({
      name: 'test.orphan',
      schema: z.object({ key: z.string() }),
      retryLimit: 2,
      retryDelaySeconds: 1,
      expireInSeconds: 600,
      async handler({ key }) {
        done.push(key);
      },
    });
    const sender = new JobQueue(t.server.databaseUrl, [step as never], silent, {
      worker: false,
      shared: false,
    });
    await sender.start();
    const id = (await sender.send(step, { key: 'a' }))!;
    await sender.stop();
    // A worker took it and died: pg-boss would keep it active until its expiry (10 minutes here).
    await t.server.ctx.pool.query(
      "update pgboss.job set state = 'active', started_on = now() where id = $1",
      [id],
    );
    const worker = new JobQueue(t.server.databaseUrl, [step as never], silent, {
      worker: true,
      shared: false,
    });
    await worker.start();
    try {
      expect(await worker.recoverOrphans(t.server.ctx.pool, true)).toBe(1);
      await worker.work(t.server.ctx);
      await until(async () => ((await jobRow(id)).state === 'completed' ? true : undefined));
      expect(done).toEqual(['a']);
    } finally {
      await worker.stop();
    }
  });
});
