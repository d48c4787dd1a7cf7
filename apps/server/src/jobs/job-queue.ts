import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { AppContext } from '../app-context.ts';
import type { JobDefinition } from './job-definition.ts';
import { JobLiveness, UNHELD_JOB_SQL } from './job-liveness.ts';

/** How often a worker on a shared PostgreSQL looks for jobs whose worker died. */
const RECOVERY_INTERVAL_MS = 15_000;

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
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly liveness: JobLiveness | null;
  private recovery: NodeJS.Timeout | null = null;
  private started = false;

  /**
   * `shared`: other processes may work the same queues (a PostgreSQL server); a worker then marks the jobs it runs
   * so that the others can take back those of a worker that died (`JobLiveness`).
   */
  constructor(
    connectionString: string,
    private readonly definitions: JobDefinition<never>[],
    private readonly log: Logger,
    options: { worker: boolean; shared: boolean },
  ) {
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
    await this.boss.start();
    for (const def of this.definitions) {
      await this.boss.createQueue(def.name, {
        name: def.name,
        retryLimit: def.retryLimit,
        retryDelay: def.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: def.expireInSeconds,
      });
      if (def.cron) await this.boss.schedule(def.name, def.cron, {}, { tz: 'UTC' });
    }
    this.started = true;
  }

  /** Enqueues a job after validating its payload against the job's schema. */
  async send<T>(
    def: JobDefinition<T>,
    data: T,
    options: { singletonKey?: string; startAfter?: number } = {},
  ): Promise<string | null> {
    const payload = def.schema.parse(data);
    return this.boss.send(def.name, payload as object, {
      retryLimit: def.retryLimit,
      retryDelay: def.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: def.expireInSeconds,
      ...options,
    });
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
          and ($2 or j.started_on + j.expire_in < now() or ${UNHELD_JOB_SQL})`,
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
    for (const def of this.definitions) {
      await this.boss.work(
        def.name,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: 0.5 },
        async ([job]) => {
          if (!job) return;
          const run = {
            id: job.id,
            retryCount: job.retryCount,
            retryLimit: job.retryLimit,
            isFinalAttempt: job.retryCount >= job.retryLimit,
          };
          const data = def.schema.parse(job.data);
          try {
            const handle = () => def.handler(data as never, ctx, run);
            await (this.liveness ? this.liveness.hold(job.id, handle) : handle());
          } catch (error) {
            this.log.warn(
              { job: def.name, jobId: job.id, attempt: run.retryCount + 1, err: error },
              'job attempt failed',
            );
            // pg-boss keeps the error as JSON in its job row: a driver error quoting a whole statement with its
            // parameters would bloat it, and a NUL character would make storing it fail and leave the job active.
            throw new Error(jobErrorMessage(error));
          }
        },
      );
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

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    if (this.recovery) clearInterval(this.recovery);
    this.recovery = null;
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    await this.liveness?.stop();
  }
}
