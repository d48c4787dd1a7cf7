import type pg from 'pg';

/**
 * How long a handed-back job stays out of reach before the worker that is stopping releases it. If that worker is
 * killed in between, the job is taken again after this delay instead of staying stranded.
 */
export const HAND_BACK_HOLD_SECONDS = 60;

/**
 * Step 1 of handing back jobs a stopping worker is still running: they leave `active`, so that pg-boss's own
 * completion of them (which only touches active jobs) does nothing, but nobody takes them yet. `started_on` is
 * cleared, so that the next fetch does not count the interrupted run as an attempt.
 */
export async function holdHandedBack(pool: pg.Pool, ids: string[]): Promise<void> {
  await pool.query(
    `update pgboss.job set state = 'retry', started_on = null,
        start_after = now() + interval '${HAND_BACK_HOLD_SECONDS} seconds',
        output = jsonb_build_object('message', 'handed back by a stopping worker')
      where id = any($1::uuid[]) and state = 'active'`,
    [ids],
  );
}

/** Step 2, once this process can no longer touch them: any worker may take the jobs at once. */
export async function releaseHandedBack(pool: pg.Pool, ids: string[]): Promise<void> {
  await pool.query(
    `update pgboss.job set start_after = now() where id = any($1::uuid[]) and state = 'retry' and started_on is null`,
    [ids],
  );
}
