import type { z } from 'zod';
import type { AppContext } from '../app-context.ts';

export interface JobRun {
  id: string;
  /** 0 on the first attempt. */
  retryCount: number;
  retryLimit: number;
  isFinalAttempt: boolean;
  /**
   * Aborted when a stopping worker hands the job back (after SHUTDOWN_GRACE_SECONDS): a long handler checks it
   * between steps and returns; the job runs again elsewhere, so nothing it did may count as a failure.
   */
  signal: AbortSignal;
}

/** A job as written: a name, a zod payload and a handler, with its own retry and expiry policy. */
export interface JobSpec<T> {
  name: string;
  schema: z.ZodType<T>;
  /** Retries after the first attempt, with exponential backoff from `retryDelaySeconds`. */
  retryLimit: number;
  retryDelaySeconds: number;
  /** How long one attempt may run before it counts as lost and is retried (keep it short). */
  expireInSeconds: number;
  /**
   * pg-boss's queue policy. 'short': at most one job of this kind waits (is created and not yet started) at a time, a
   * send while one waits is dropped; for a job that catches up with whatever happened before it runs. Default
   * 'standard': every send is a job.
   */
  policy?: 'standard' | 'short';
  /** How many jobs of this kind one worker runs at once (default 1). */
  concurrency?: (ctx: AppContext) => number;
  /** Runs on this schedule (cron, UTC) as well as when sent; pg-boss keeps the schedule in the database. */
  cron?: string;
  handler(data: T, ctx: AppContext, run: JobRun): Promise<void>;
}

/** A job as the queue runs it: its spec, and `handle`, which hands the handler what the job's own schema parsed. */
export interface JobDefinition<T = unknown> extends JobSpec<T> {
  handle(data: unknown, ctx: AppContext, run: JobRun): Promise<void>;
}

/**
 * A job of whichever data type, as the queue's list holds them: any JobDefinition<T> is one. The queue calls
 * `handle`, which pairs the job's schema with its handler where both are still typed.
 */
export type AnyJobDefinition = Omit<JobDefinition, 'handler'>;

export function defineJob<T>(spec: JobSpec<T>): JobDefinition<T> {
  return { ...spec, handle: async (data, ctx, run) => spec.handler(spec.schema.parse(data), ctx, run) };
}
