import { FILE_STATUSES } from '@werkwissen/shared';
import type pg from 'pg';
import type { Logger } from 'pino';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** How a job attempt ended: its handler returned, threw, or the stopping worker handed the job back. */
export type JobOutcome = 'completed' | 'failed' | 'handed_back';

/** The job states that are work not yet done (pg-boss's `created` and `retry` wait, `active` runs). */
const PENDING_JOB_STATES = ['created', 'retry', 'active'] as const;

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
const ACQUIRE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/**
 * The process's Prometheus metrics (one registry per server, so that servers in one test process stay apart).
 * Every label has few values: route patterns, never URLs; job names; statuses and outcomes; no company or user.
 * Counters and histograms count what this process did; the database gauges (queue depth, files by status) are
 * read when scraped, with one grouped query each, and are the same whichever process is asked.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #http = new Histogram({
    name: 'werkwissen_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });
  readonly #jobs = new Histogram({
    name: 'werkwissen_job_duration_seconds',
    help: 'Time a job attempt ran in this process, by job name and outcome (completed, failed, handed_back).',
    labelNames: ['name', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });
  readonly #answers = new Counter({
    name: 'werkwissen_answers_total',
    help: 'Chat answers this process finished, by outcome (complete, no_answer, stopped, interrupted) and provider.',
    labelNames: ['outcome', 'provider'] as const,
    registers: [this.registry],
  });
  readonly #acquire = new Histogram({
    name: 'werkwissen_db_pool_acquire_seconds',
    help: 'Time to get a connection from the database pool (waiting included).',
    buckets: ACQUIRE_BUCKETS,
    registers: [this.registry],
  });

  private readonly log: Logger;
  constructor(log: Logger) {
    this.log = log;
  }

  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.#http.observe({ method, route, status_code: String(statusCode) }, seconds);
  }

  observeJob(name: string, outcome: JobOutcome, seconds: number): void {
    this.#jobs.observe({ name, outcome }, seconds);
  }

  countAnswer(outcome: 'complete' | 'no_answer' | 'stopped' | 'interrupted', provider: string): void {
    this.#answers.inc({ outcome, provider });
  }

  observeAcquire(seconds: number): void {
    this.#acquire.observe(seconds);
  }

  /**
   * What is read when scraped: the pool's clients and waiters, pending jobs per queue and state, files per status;
   * and the process's own figures (CPU, memory, event-loop delay). Called once, when metrics are served at all.
   */
  watch(pool: pg.Pool, jobNames: string[]): void {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'werkwissen_db_pool_waiting_clients',
      help: 'Queries waiting for a free connection of this process’s database pool.',
      registers: [this.registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
    new Gauge({
      name: 'werkwissen_db_pool_clients',
      help: 'Connections of this process’s database pool, by state (idle, busy).',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'busy' }, pool.totalCount - pool.idleCount);
      },
    });
    const log = this.log;
    new Gauge({
      name: 'werkwissen_job_queue_depth',
      help: 'Jobs in the queue by job name and state (created and retry wait, active runs).',
      labelNames: ['name', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          const { rows } = await pool.query<{ name: string; state: string; n: number }>(
            `select name, state::text, count(*)::int as n from pgboss.job
              where name = any($1) and state = any($2::pgboss.job_state[]) group by name, state`,
            [jobNames, PENDING_JOB_STATES],
          );
          for (const name of jobNames) for (const state of PENDING_JOB_STATES) this.set({ name, state }, 0);
          for (const row of rows) this.set({ name: row.name, state: row.state }, row.n);
        } catch (error) {
          log.warn({ err: error }, 'metrics: could not count the job queue');
        }
      },
    });
    new Gauge({
      name: 'werkwissen_files',
      help: 'Uploaded files of all companies by processing status.',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          const { rows } = await pool.query<{ status: string; n: number }>(
            'select status, count(*)::int as n from files group by status',
          );
          for (const status of FILE_STATUSES) this.set({ status }, 0);
          for (const row of rows) this.set({ status: row.status }, row.n);
        } catch (error) {
          log.warn({ err: error }, 'metrics: could not count the files');
        }
      },
    });
  }
}
