import pg from 'pg';
import type { Logger } from 'pino';

/** Seed of the 64-bit advisory-lock key of a running job: `hashtextextended(job id, JOB_LOCK_SEED)`. */
export const JOB_LOCK_SEED = 727277;

/**
 * How long a job may be active before its lock must be visible: pg-boss marks a job active when a worker fetches
 * it, a moment before that worker's handler takes the lock.
 */
export const LOCK_GRACE_SECONDS = 10;

/**
 * Marks the jobs this worker process is running, so that other workers on a shared PostgreSQL can tell a job whose
 * worker died from one that is still running: each running job holds a session advisory lock on one connection of
 * this process. When the process dies, PostgreSQL ends that session and the locks go with it, at once, without
 * waiting for the job's expiry. (On the embedded database only this process runs jobs, so it does not need this.)
 */
export class JobLiveness {
  private client: pg.Client | null = null;
  private readonly held = new Set<string>();
  private closed = false;
  /** The connection's statements one after another: several jobs run at once, and a pg client takes one at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  private readonly connectionString: string;
  private readonly log: Logger;
  constructor(connectionString: string, log: Logger) {
    this.connectionString = connectionString;
    this.log = log;
  }

  async start(): Promise<void> {
    this.client = await this.connect();
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('error', (error) => {
      if (this.closed) return;
      // The locks went with the session: take them again on a new one, so other workers keep seeing the jobs.
      this.log.warn({ err: error }, 'the job lock connection was lost; reconnecting');
      this.client = null;
      void this.reconnect();
    });
    await client.connect();
    for (const id of this.held) await lock(client, id);
    return client;
  }

  private async reconnect(): Promise<void> {
    while (!this.closed && !this.client) {
      try {
        this.client = await this.connect();
      } catch (error) {
        this.log.warn({ err: error }, 'the job lock connection cannot be opened yet');
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  /** Runs a job's handler while this process holds the job's lock. */
  async hold<T>(jobId: string, run: () => Promise<T>): Promise<T> {
    this.held.add(jobId);
    await this.serially((client) => lock(client, jobId));
    try {
      return await run();
    } finally {
      this.held.delete(jobId);
      // A failed unlock means a lost lock connection, which ended the session's locks with it.
      await this.serially((client) =>
        client.query('select pg_advisory_unlock(hashtextextended($1, $2))', [jobId, JOB_LOCK_SEED]),
      ).catch(() => {});
    }
  }

  /** Runs a statement on the lock connection after the ones before it (none while it is reconnecting). */
  private serially(statement: (client: pg.Client) => Promise<unknown>): Promise<unknown> {
    const next = this.queue.then(() => (this.client ? statement(this.client) : undefined));
    // The caller gets the statement's failure through `next`; the chain only keeps the order.
    this.queue = next.catch(() => {});
    return next;
  }

  async stop(): Promise<void> {
    this.closed = true;
    // Stopping: a connection that cannot end cleanly is gone all the same.
    await this.client?.end().catch(() => {});
    this.client = null;
  }
}

function lock(client: pg.Client, jobId: string) {
  return client.query('select pg_advisory_lock(hashtextextended($1, $2))', [jobId, JOB_LOCK_SEED]);
}

/**
 * The condition, on a row `j` of pgboss.job, that no live worker holds it: active for longer than the grace, and no
 * session holds its advisory lock (a 64-bit lock key is split into `classid` and `objid` in pg_locks).
 */
export const UNHELD_JOB_SQL = `(j.started_on < now() - interval '${LOCK_GRACE_SECONDS} seconds'
  and not exists (select 1 from pg_locks l where l.locktype = 'advisory' and l.objsubid = 1 and l.granted
    and ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(j.id::text, ${JOB_LOCK_SEED})))`;
