import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { AppContext } from '../app-context.ts';
import type { JobDefinition } from './job-definition.ts';

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
  private started = false;

  constructor(
    connectionString: string,
    private readonly definitions: JobDefinition<never>[],
    private readonly log: Logger,
    options: { worker: boolean },
  ) {
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
   * process can open) every active job is an orphan; otherwise only jobs past their expiry are.
   */
  async recoverOrphans(db: AppContext['pool'], exclusive: boolean): Promise<number> {
    const names = this.definitions.map((d) => d.name);
    const { rowCount } = await db.query(
      `update pgboss.job set state = 'retry', start_after = now()
        where state = 'active' and name = any($1)
          and ($2 or started_on + expire_in < now())`,
      [names, exclusive],
    );
    return rowCount ?? 0;
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
            await def.handler(data as never, ctx, run);
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
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
