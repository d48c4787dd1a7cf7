import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { engineDatabase } from '../../test/support/test-database.ts';
import { startTestServer, type TestServer } from '../../test/support/test-server.ts';
import { defineJob, type JobRun } from './job-definition.ts';
import { JobQueue } from './job-queue.ts';
import { PG_BOSS_10_SCHEMA } from './pg-boss-10-upgrade.ts';

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
    started_on: Date | null;
  };
}

describe('jobs on pg-boss', () => {
  it('takes the next job as soon as one is done, not after the polling interval', async () => {
    const ran: number[] = [];
    const quick = defineJob({
      name: 'test.quick',
      schema: z.object({ n: z.number() }),
      retryLimit: 0,
      retryDelaySeconds: 1,
      expireInSeconds: 30,
      async handler({ n }) {
        ran.push(n);
      },
    });
    // An idle worker would wait 10 minutes between looks: only going on at once after a job runs all four.
    const queue = new JobQueue(t.server.databaseUrl, [quick], silent, {
      worker: true,
      shared: false,
      pollingIntervalSeconds: 600,
    });
    await queue.start();
    try {
      for (const n of [1, 2, 3, 4]) await queue.send(quick, { n });
      await queue.work(t.server.ctx);
      await until(async () => (ran.length === 4 ? true : undefined));
      expect(ran).toEqual([1, 2, 3, 4]);
    } finally {
      await queue.stop();
    }
  });

  it('wakes its own idle worker for a job it sends, not at the polling interval', async () => {
    const ran: number[] = [];
    const woken = defineJob({
      name: 'test.woken',
      schema: z.object({ n: z.number() }),
      retryLimit: 0,
      retryDelaySeconds: 1,
      expireInSeconds: 30,
      concurrency: () => 2,
      async handler({ n }) {
        ran.push(n);
      },
    });
    // Once idle (a look that found nothing), either worker would look again only in 10 minutes.
    const queue = new JobQueue(t.server.databaseUrl, [woken], silent, {
      worker: true,
      shared: false,
      pollingIntervalSeconds: 600,
    });
    await queue.start();
    try {
      await queue.work(t.server.ctx);
      for (const n of [1, 2, 3]) {
        await queue.send(woken, { n });
        await until(async () => (ran.includes(n) ? true : undefined));
      }
      expect(ran).toEqual([1, 2, 3]);
    } finally {
      await queue.stop();
    }
  });

  it('looks for jobs in idle queues with one statement, and still runs at once what another process sends or falls due', async () => {
    const ran: string[] = [];
    const jobs = ['a', 'b', 'c'].map((x) =>
      defineJob({
        name: `test.idle-${x}`,
        schema: z.object({ n: z.string() }),
        retryLimit: 0,
        retryDelaySeconds: 1,
        expireInSeconds: 30,
        async handler({ n }) {
          ran.push(n);
        },
      }),
    );
    const queue = new JobQueue(t.server.databaseUrl, jobs, silent, {
      worker: true,
      shared: false,
      pollingIntervalSeconds: 0.5,
    });
    // Another process on the same database, which only sends: its jobs wake none of this one's workers directly.
    const elsewhere = new JobQueue(t.server.databaseUrl, jobs, silent, { worker: false, shared: false });
    await queue.start();
    await elsewhere.start();
    try {
      await queue.work(t.server.ctx);
      const first = await until(async () => {
        const looks = queue.lastLooks();
        return looks.length === 3 && looks.every((l) => l.at !== null) ? looks : undefined;
      });
      // Four polling intervals later no idle worker has looked again by itself (each did every interval before).
      await new Promise((r) => setTimeout(r, 2_000));
      expect(queue.lastLooks()).toEqual(first);
      await elsewhere.send(jobs[1]!, { n: 'sent elsewhere' });
      await queue.send(jobs[2]!, { n: 'due a second later' }, { startAfter: 1 });
      // Well before an idle worker's own next look (30 s): the process's look at its queues woke them.
      await until(async () => (ran.length === 2 ? true : undefined), 15_000);
      expect(ran.sort()).toEqual(['due a second later', 'sent elsewhere']);
    } finally {
      await queue.stop();
      await elsewhere.stop();
    }
  });

  it("keeps one job of a 'short' queue waiting at most, also on a queue first created with every send a job", async () => {
    const catchUp = defineJob({
      name: 'test.catch-up',
      schema: z.object({}),
      policy: 'short',
      retryLimit: 0,
      retryDelaySeconds: 1,
      expireInSeconds: 30,
      async handler() {},
    });
    const waiting = async () => {
      const { rows } = await t.server.ctx.pool.query(
        "select count(*)::int as n from pgboss.job where name = 'test.catch-up' and state = 'created'",
      );
      return rows[0].n as number;
    };
    // The queue as an earlier version made it: the standard policy, where every send is a job.
    const earlier = new JobQueue(t.server.databaseUrl, [{ ...catchUp, policy: undefined }], silent, {
      worker: false,
      shared: false,
    });
    await earlier.start();
    try {
      await earlier.send(catchUp, {}, { startAfter: 60 });
      await earlier.send(catchUp, {}, { startAfter: 60 });
      expect(await waiting()).toBe(2);
    } finally {
      await earlier.stop();
    }
    await t.server.ctx.pool.query("delete from pgboss.job where name = 'test.catch-up'");

    const queue = new JobQueue(t.server.databaseUrl, [catchUp], silent, {
      worker: false,
      shared: false,
    });
    await queue.start();
    try {
      expect(await queue.send(catchUp, {}, { startAfter: 60 })).not.toBeNull();
      expect(await queue.send(catchUp, {}, { startAfter: 60 })).toBeNull();
      expect(await waiting()).toBe(1);
    } finally {
      await queue.stop();
    }
  });

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
    const queue = new JobQueue(t.server.databaseUrl, [flaky], silent, {
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
    const queue = new JobQueue(t.server.databaseUrl, [typed], silent, {
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
    const sender = new JobQueue(t.server.databaseUrl, [step], silent, {
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
    const worker = new JobQueue(t.server.databaseUrl, [step], silent, {
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

  it('lets a job finish within the grace when stopping, and hands back one that does not', async () => {
    const attempts: number[] = [];
    const outcomes: string[] = [];
    let hold = true;
    let started = () => {};
    const slow = defineJob({
      name: 'test.slow',
      schema: z.object({ ms: z.number() }),
      retryLimit: 3,
      retryDelaySeconds: 30,
      expireInSeconds: 600,
      async handler({ ms }, _ctx, run) {
        attempts.push(run.retryCount);
        started();
        if (!hold) return;
        // A long step that checks its signal, like the indexing loop between batches.
        await new Promise<void>((resolve) => {
          setTimeout(resolve, ms);
          run.signal.addEventListener('abort', () => resolve());
        });
      },
    });
    const worker = () =>
      new JobQueue(t.server.databaseUrl, [slow], silent, {
        worker: true,
        shared: false,
        onAttempt: (_name, outcome) => outcomes.push(outcome),
      });
    const run = async (queue: JobQueue, ms: number) => {
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      const id = (await queue.send(slow, { ms }))!;
      await queue.work(t.server.ctx);
      await running;
      return id;
    };

    const first = worker();
    await first.start();
    const quick = await run(first, 300);
    expect(await first.stop(30_000)).toBe(0);
    expect((await jobRow(quick)).state).toBe('completed');

    const second = worker();
    await second.start();
    const long = await run(second, 600_000);
    expect(await second.stop(0)).toBe(1);
    const handedBack = await jobRow(long);
    expect(handedBack).toMatchObject({ state: 'retry', retry_count: 0, started_on: null });
    // Available at once, not after the retry delay.
    expect(handedBack.start_after.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(outcomes).toEqual(['completed', 'handed_back']);

    // Another worker takes it and runs it as the same attempt.
    hold = false;
    const third = worker();
    await third.start();
    try {
      await third.work(t.server.ctx);
      const done = await until(async () => {
        const row = await jobRow(long);
        return row.state === 'completed' ? row : undefined;
      });
      expect(done.retry_count).toBe(0);
      expect(attempts).toEqual([0, 0, 0]);
    } finally {
      await third.stop();
    }
  });
});

describe('the upgrade from pg-boss 10', () => {
  const fixture = readFileSync(new URL('../../test/fixtures/pg-boss-10-queue.sql', import.meta.url), 'utf8');

  it('moves the jobs pg-boss 10 had not finished to pg-boss 12, where they run once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ww-pg-boss-10-'));
    const database = await engineDatabase(dir);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(fixture);
      // As a database left yesterday: n 6 was to start an hour from now, n 4's worker took it two minutes ago.
      await client.query(`update pgboss.job set created_on = now() - interval '1 day',
          keep_until = now() + interval '13 days',
          start_after = case when data->>'n' = '6' then now() + interval '1 hour' else now() - interval '1 day' end,
          started_on = case when state in ('active', 'completed') then now() - interval '2 minutes' end`);

      const runs: { n: number; retryCount: number }[] = [];
      const handler = async ({ n }: { n: number }, _ctx: unknown, run: JobRun) => {
        runs.push({ n, retryCount: run.retryCount });
      };
      const common = {
        schema: z.object({ n: z.number() }),
        retryLimit: 2,
        retryDelaySeconds: 1,
        expireInSeconds: 60,
      };
      const upgrade = defineJob({ name: 'test.upgrade', ...common, handler });
      const short = defineJob({ name: 'test.upgrade-short', policy: 'short', ...common, handler });
      const worker = () =>
        new JobQueue(database.url, [upgrade, short], silent, {
          worker: true,
          shared: false,
        });

      const first = worker();
      await first.start();
      const schemas = await client.query('select 1 from pg_namespace where nspname = $1', [
        PG_BOSS_10_SCHEMA,
      ]);
      expect(schemas.rowCount).toBe(0);
      const { rows } = await client.query(
        `select (data->>'n')::int as n, name, state, priority, retry_count, singleton_key, output, policy
          from pgboss.job order by 1`,
      );
      expect(rows).toEqual([
        expect.objectContaining({
          n: 1,
          name: 'test.upgrade',
          state: 'created',
          priority: 5,
          retry_count: 0,
        }),
        expect.objectContaining({ n: 2, state: 'created', singleton_key: 'outbox-2' }),
        expect.objectContaining({
          n: 3,
          state: 'retry',
          retry_count: 1,
          output: { message: 'the first attempt failed' },
        }),
        // Active when pg-boss 10 stopped: back in the queue.
        expect.objectContaining({ n: 4, state: 'retry', retry_count: 0 }),
        expect.objectContaining({ n: 6, state: 'created' }),
        expect.objectContaining({ n: 7, name: 'test.upgrade-short', state: 'created', policy: 'short' }),
      ]);

      try {
        await first.work(t.server.ctx);
        await until(async () => (runs.length >= 5 ? true : undefined));
      } finally {
        await first.stop();
      }
      expect(runs.sort((a, b) => a.n - b.n)).toEqual([
        { n: 1, retryCount: 0 },
        { n: 2, retryCount: 0 },
        { n: 3, retryCount: 1 },
        // Its interrupted run counts as an attempt, as for any job whose worker died.
        { n: 4, retryCount: 1 },
        { n: 7, retryCount: 0 },
      ]);

      // A second start finds nothing more to move, and nothing runs twice.
      const second = worker();
      await second.start();
      await second.stop();
      const states = await client.query(
        `select (data->>'n')::int as n, state from pgboss.job where name like 'test.upgrade%' order by 1`,
      );
      expect(states.rows).toEqual([
        { n: 1, state: 'completed' },
        { n: 2, state: 'completed' },
        { n: 3, state: 'completed' },
        { n: 4, state: 'completed' },
        { n: 6, state: 'created' },
        { n: 7, state: 'completed' },
      ]);
    } finally {
      await client.end();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
