import type pg from 'pg';
import { type JobWithMetadata, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { AppContext } from '../app-context.ts';
import type { JobOutcome } from '../metrics/metrics.ts';
import type { AnyJobDefinition, JobDefinition } from './job-definition.ts';
import { holdHandedBack, releaseHandedBack } from './job-hand-back.ts';
import { JobLiveness, UNHELD_JOB_SQL } from './job-liveness.ts';
import { movePgBoss10Jobs, setAsidePgBoss10 } from './pg-boss-10-upgrade.ts';

/** How often a worker on a shared PostgreSQL looks for jobs whose worker died. */
const RECOVERY_INTERVAL_MS = 15_000;
/** After handing jobs back, how long their handlers may take to notice (`run.signal`) before the jobs go out. */
const HAND_BACK_SETTLE_MS = 2_000;
/**
 * How long an idle pg-boss worker waits before it looks for a job by itself. The process's one look at all its queues
 * (`lookForReadyJobs`, every polling interval) wakes it sooner when its queue has a job ready.
 */
const IDLE_WORKER_LOOK_SECONDS = 30;
/**
 * The queues among `$1` with a job that a worker could take now: waiting (created or retry), not blocked, due. One
 * statement on pg-boss's partial index of waiting jobs, instead of one fetch per idle worker.
 */
const READY_QUEUES_SQL = `select distinct name from pgboss.job
  where name = any($1) and state < 'active' and not blocked and start_after <= now()`;

/** A job attempt running in this process. */
interface RunningJob {
  abort: AbortController;
  /** Settles when the handler has returned or thrown. */
  settled: Promise<unknown>;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** A short, storable description of a failed attempt (the driver's cause rather than the statement). */
export function jobErrorMessage(error: unknown): string {
  const e = error as { message?: unknown; cause?: { message?: unknown } };
  const message = String(e?.cause?.message ?? e?.message ?? error);
  return message.replace(/\p{Cc}/gu, ' ').slice(0, 1000);
}

/**
 * pg-boss on the application's own database. The API role only sends; the worker role also works the queues.
 * Failed attempts are retried with exponential backoff and their error is kept in pg-boss's job row (`output`).
 */
export interface SendOptions {
  singletonKey?: string;
  startAfter?: number;
  /** Higher runs first; among equals, older first. */
  priority?: number;
}

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly liveness: JobLiveness | null;
  private readonly onAttempt: (name: string, outcome: JobOutcome, seconds: number) => void;
  private recovery: NodeJS.Timeout | null = null;
  /** The next look for queues with a job ready (`lookForReadyJobs`). */
  private readyLook: NodeJS.Timeout | null = null;
  private readyLookFailing = false;
  private started = false;
  private readonly running = new Map<string, RunningJob>();
  /** Set when the worker starts stopping: a job fetched after that goes back at once. */
  private stopping = false;
  /** Resolves when the jobs being handed back have left `active` (see `stop`). */
  private handBackHeld: Promise<void> | null = null;
  /** The jobs handed back, released to other workers once this one has stopped. */
  private readonly handedBack: string[] = [];
  private pool: pg.Pool | null = null;
  private readonly pollingIntervalSeconds: number;
  /** The pg-boss workers this process runs, by queue, and whose turn it is to be woken by a local send. */
  private readonly localWorkers = new Map<string, string[]>();
  private readonly wakeTurn = new Map<string, number>();
  private readonly retired: string[];

  private readonly connectionString: string;
  private readonly definitions: readonly AnyJobDefinition[];
  private readonly log: Logger;
  /**
   * `shared`: other processes may work the same queues (a PostgreSQL server); a worker then marks the jobs it runs
   * so that the others can take back those of a worker that died (`JobLiveness`).
   */
  constructor(
    connectionString: string,
    definitions: readonly AnyJobDefinition[],
    log: Logger,
    options: {
      worker: boolean;
      shared: boolean;
      /** Hears how each attempt ended and how long it ran (the job metrics). */
      onAttempt?: (name: string, outcome: JobOutcome, seconds: number) => void;
      /**
       * How often a worker process looks for a job in its idle queues (default 0.5 s): one statement for all its
       * queues, which wakes the workers of those with a job ready; each idle worker also looks by itself, every
       * IDLE_WORKER_LOOK_SECONDS or this interval if longer.
       */
      pollingIntervalSeconds?: number;
      /** Queues of jobs that no longer exist: a worker removes them, with their schedules and waiting jobs. */
      retired?: string[];
    },
  ) {
    this.connectionString = connectionString;
    this.definitions = definitions;
    this.log = log;
    this.pollingIntervalSeconds = options.pollingIntervalSeconds ?? 0.5;
    this.retired = options.worker ? (options.retired ?? []) : [];
    this.onAttempt = options.onAttempt ?? (() => {});
    this.liveness = options.worker && options.shared ? new JobLiveness(connectionString, log) : null;
    this.boss = new PgBoss({
      connectionString,
      max: 4,
      supervise: options.worker,
      schedule: options.worker,
      migrate: true,
      maintenanceIntervalSeconds: 30,
    });
    this.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
  }

  async start(): Promise<void> {
    await this.liveness?.start();
    if (await setAsidePgBoss10(this.connectionString))
      this.log.info('set the job queue of pg-boss 10 aside to move its jobs to pg-boss 12');
    await this.boss.start();
    const stored = new Map((await this.boss.getQueues()).map((q) => [q.name, q.policy]));
    for (const def of this.definitions) {
      const queue = {
        name: def.name,
        policy: def.policy ?? 'standard',
        retryLimit: def.retryLimit,
        retryDelay: def.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: def.expireInSeconds,
      };
      if (!stored.has(def.name)) await this.boss.createQueue(def.name, queue);
      // createQueue leaves an existing queue as it is, and pg-boss 12 refuses to change a queue's policy (updateQueue).
      // A job takes its policy from the queue's row when it is sent: a changed policy applies to jobs sent from now.
      else if (stored.get(def.name) !== queue.policy)
        await this.boss
          .getDb()
          .executeSql('update pgboss.queue set policy = $2, updated_on = now() where name = $1', [
            def.name,
            queue.policy,
          ]);
      if (def.cron) await this.boss.schedule(def.name, def.cron, {}, { tz: 'UTC' });
    }
    const upgrade = await movePgBoss10Jobs(this.connectionString);
    if (upgrade) this.log.info(upgrade, 'moved the unfinished jobs of pg-boss 10 to pg-boss 12');
    for (const name of this.retired.filter((n) => stored.has(n))) {
      try {
        await this.boss.unschedule(name);
        await this.boss.deleteQueue(name);
        this.log.info({ queue: name }, 'removed the queue of a job that no longer exists');
      } catch (error) {
        // Another worker starting at the same time may have removed it first.
        this.log.warn({ err: error, queue: name }, 'could not remove the queue of a retired job');
      }
    }
    this.started = true;
  }

  /** Enqueues a job after validating its payload against the job's schema. */
  async send<T>(def: JobDefinition<T>, data: T, options: SendOptions = {}): Promise<string | null> {
    const payload = def.schema.parse(data);
    const id = await this.boss.send(def.name, payload as object, {
      retryLimit: def.retryLimit,
      retryDelay: def.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: def.expireInSeconds,
      ...options,
    });
    if (id && !options.startAfter) this.wakeLocalWorker(def.name);
    return id;
  }

  /**
   * Enqueues the job of work already committed (a mail written, a file stored, a reply saved). It never throws: from
   * the commit on, the work is its sweep's, which queues it within minutes when this send fails (pg-boss's
   * connections busy past their wait on a loaded machine, the database gone for a moment). `options` may be read
   * first (a file's priority), `about` names the work in the log. Returns whether the job was queued.
   */
  async sendAfterCommit<T>(
    def: JobDefinition<T>,
    data: T,
    options: SendOptions | (() => Promise<SendOptions>) = {},
    about: Record<string, unknown> = {},
  ): Promise<boolean> {
    try {
      await this.send(def, data, typeof options === 'function' ? await options() : options);
      return true;
    } catch (error) {
      this.log.warn(
        { err: error, job: def.name, ...about },
        'committed work could not be queued; its sweep queues it',
      );
      return false;
    }
  }

  /**
   * A job sent by this process to a queue it works is fetched at once by one of its workers (in turn) instead of at
   * the worker's next poll: no database statement, only the wait before the fetch goes (a busy worker fetches again
   * when its job ends). Workers of other processes still find it by polling.
   */
  private wakeLocalWorker(name: string): void {
    const workers = this.localWorkers.get(name);
    if (!workers || workers.length === 0) return;
    const turn = (this.wakeTurn.get(name) ?? 0) % workers.length;
    this.wakeTurn.set(name, turn + 1);
    this.boss.notifyWorker(workers[turn]!);
  }

  /**
   * Puts work orphaned by a crash back in the queue. With `exclusive` (the embedded database, which only this
   * process can open) every active job is an orphan; otherwise jobs past their expiry are, and jobs no live worker
   * holds (see `JobLiveness`).
   */
  async recoverOrphans(db: AppContext['pool'], exclusive: boolean): Promise<number> {
    const names = this.definitions.map((d) => d.name);
    const { rowCount } = await db.query(
      `update pgboss.job j set state = 'retry', start_after = now()
        where j.state = 'active' and j.name = any($1)
          and ($2 or j.started_on + j.expire_seconds * interval '1 second' < now() or ${UNHELD_JOB_SQL})`,
      [names, exclusive],
    );
    return rowCount ?? 0;
  }

  /** On a shared database: looks for the jobs of workers that died, every RECOVERY_INTERVAL_MS. */
  watchForOrphans(db: AppContext['pool']): void {
    if (!this.liveness || this.recovery) return;
    this.recovery = setInterval(() => {
      this.recoverOrphans(db, false)
        .then((recovered) => {
          if (recovered > 0) this.log.info({ recovered }, 'requeued jobs of a worker that stopped');
        })
        .catch((error) => this.log.warn({ err: error }, 'looking for orphaned jobs failed'));
    }, RECOVERY_INTERVAL_MS);
    this.recovery.unref();
  }

  /** Starts working every queue with the given context. */
  async work(ctx: AppContext): Promise<void> {
    this.pool = ctx.pool;
    for (const def of this.definitions) {
      // Each pg-boss worker fetches and runs one job at a time: `concurrency` of them run side by side.
      for (let n = def.concurrency?.(ctx) ?? 1; n > 0; n--) {
        let workerId: string | undefined;
        workerId = await this.boss.work(
          def.name,
          {
            batchSize: 1,
            includeMetadata: true,
            pollingIntervalSeconds: Math.max(IDLE_WORKER_LOOK_SECONDS, this.pollingIntervalSeconds),
          },
          async ([job]) => {
            if (!job) return;
            if (this.stopping) {
              // Fetched while the worker was already stopping: handed back without running it.
              await holdHandedBack(ctx.pool, [job.id]);
              this.handedBack.push(job.id);
              return;
            }
            try {
              await this.attempt(def, job, ctx);
            } finally {
              // pg-boss waits out the polling interval after a job shorter than it, which capped a worker at two
              // jobs a second: after a job, look for the next one at once.
              if (workerId) this.boss.notifyWorker(workerId);
            }
          },
        );
        this.localWorkers.set(def.name, [...(this.localWorkers.get(def.name) ?? []), workerId]);
      }
    }
    this.lookForReadyJobs(ctx.pool, [...this.localWorkers.keys()]);
  }

  /**
   * Every polling interval, one statement asks which of this process's queues have a job ready, and wakes their
   * workers: jobs sent by other processes, retries and delayed jobs that fell due, jobs of a schedule. An idle
   * embedded server made one fetch per worker and interval (about 50 statements a second), which kept a fifth of a
   * core busy doing nothing.
   */
  private lookForReadyJobs(db: AppContext['pool'], queues: string[]): void {
    if (!this.started || this.stopping) return;
    this.readyLook = setTimeout(async () => {
      try {
        const { rows } = await db.query<{ name: string }>(READY_QUEUES_SQL, [queues]);
        for (const { name } of rows)
          for (const workerId of this.localWorkers.get(name) ?? []) this.boss.notifyWorker(workerId);
        this.readyLookFailing = false;
      } catch (error) {
        // The workers' own looks go on meanwhile; one line per outage, not one per interval.
        if (!this.readyLookFailing)
          this.log.warn({ err: error }, 'looking for queues with a job ready failed');
        this.readyLookFailing = true;
      }
      this.lookForReadyJobs(db, queues);
    }, this.pollingIntervalSeconds * 1000);
    this.readyLook.unref();
  }

  /** When each worker of each queue last looked for a job (epoch milliseconds; null before its first look). */
  lastLooks(): Array<{ queue: string; at: number | null }> {
    return this.boss.getWipData().map((w) => ({ queue: w.name, at: w.lastFetchedOn }));
  }

  /**
   * Runs one attempt (holding the job's liveness lock on a shared database) and tells pg-boss how it ended, unless
   * the worker handed the job back meanwhile: then it returns once the job has left `active`, so that pg-boss's
   * completion does not touch it, whether or not the handler has stopped yet.
   */
  private async attempt(def: AnyJobDefinition, job: JobWithMetadata<unknown>, ctx: AppContext) {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    const abort = new AbortController();
    const run = {
      id: job.id,
      retryCount: job.retryCount,
      retryLimit: job.retryLimit,
      isFinalAttempt: job.retryCount >= job.retryLimit,
      signal: abort.signal,
    };
    const handle = async () => def.handle(job.data, ctx, run);
    const settled = this.liveness ? this.liveness.hold(job.id, handle) : handle();
    this.running.set(job.id, { abort, settled });
    const handedBack = new Promise<'handed back'>((resolve) =>
      abort.signal.addEventListener('abort', () => resolve('handed back'), { once: true }),
    );
    try {
      const result = await Promise.race([
        settled.then(
          () => null,
          (error: unknown) => ({ error }),
        ),
        handedBack,
      ]);
      if (abort.signal.aborted) {
        // Handed back: the job runs again elsewhere, so how this attempt's handler ends no longer counts.
        settled.catch(() => {});
        await this.handBackHeld;
        this.onAttempt(def.name, 'handed_back', seconds());
        return;
      }
      if (result !== null && result !== 'handed back') {
        this.onAttempt(def.name, 'failed', seconds());
        this.log.warn(
          { job: def.name, jobId: job.id, attempt: run.retryCount + 1, err: result.error },
          'job attempt failed',
        );
        // pg-boss keeps the error as JSON in its job row: a driver error quoting a whole statement with its
        // parameters would bloat it, and a NUL character would make storing it fail and leave the job active.
        throw new Error(jobErrorMessage(result.error));
      }
      this.onAttempt(def.name, 'completed', seconds());
    } finally {
      this.running.delete(job.id);
    }
  }

  async isReachable(): Promise<boolean> {
    if (!this.started) return false;
    try {
      await this.boss.getQueue(this.definitions[0]?.name ?? '__none__');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Stops the queue. A worker stops fetching, lets running jobs finish for up to `graceMs`, then hands back the ones
   * still running: their handlers are told (`run.signal`), the jobs leave `active` at once and, after pg-boss has
   * stopped and the handlers had a moment to return, become available to any worker immediately, without counting
   * the interrupted run as an attempt. Returns how many jobs were handed back.
   */
  async stop(graceMs = 10_000): Promise<number> {
    if (!this.started) return 0;
    this.started = false;
    this.stopping = true;
    if (this.recovery) clearInterval(this.recovery);
    this.recovery = null;
    if (this.readyLook) clearTimeout(this.readyLook);
    this.readyLook = null;
    // Without waiting for the running jobs: they get the grace below, then are handed back.
    for (const def of this.definitions) await this.boss.offWork(def.name, { wait: false });
    const deadline = Date.now() + graceMs;
    while (this.running.size > 0 && Date.now() < deadline) await delay(Math.min(100, deadline - Date.now()));
    const left = [...this.running.entries()];
    if (left.length > 0 && this.pool) {
      const ids = left.map(([id]) => id);
      this.handBackHeld = holdHandedBack(this.pool, ids);
      for (const [, job] of left) job.abort.abort('handed back');
      await this.handBackHeld.then(
        () => this.handedBack.push(...ids),
        (error: unknown) => this.log.error({ err: error }, 'could not hand back the running jobs'),
      );
    }
    await this.boss.stop({ graceful: true, timeout: 1000 });
    if (this.handedBack.length > 0 && this.pool) {
      await Promise.race([
        Promise.allSettled(left.map(([, job]) => job.settled)),
        delay(HAND_BACK_SETTLE_MS),
      ]);
      await releaseHandedBack(this.pool, this.handedBack);
      this.log.warn({ jobs: this.handedBack.length }, 'handed back jobs that were still running');
    }
    await this.liveness?.stop();
    return this.handedBack.length;
  }
}
