import pg from 'pg';

/**
 * The upgrade of a job queue that pg-boss 10 made (its schema version 24) to pg-boss 12. pg-boss migrates its schema
 * only within a line that began with 11.0 (version 25): it cannot start on pg-boss 10's schema, and its release notes
 * leave moving the jobs to the application. So a server that finds that schema sets it aside before pg-boss starts
 * (`setAsidePgBoss10`), lets pg-boss 12 install its own, and once the queues exist moves the unfinished jobs over and
 * drops the old schema (`movePgBoss10Jobs`). Processes that start together do each step once, under a lock.
 */

/** pg-boss 10's schema version. */
const PG_BOSS_10_VERSION = 24;
/** Where pg-boss 10's schema waits between the two steps. */
export const PG_BOSS_10_SCHEMA = 'pgboss_v10';
/** The advisory lock both steps take (a transaction lock: a process that dies releases it). */
const UPGRADE_LOCK = 727278;

async function withClient<T>(connectionString: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [UPGRADE_LOCK]);
    const result = await run(client);
    await client.query('commit');
    return result;
  } catch (error) {
    // The upgrade's own error is thrown; a rollback failing on a broken connection would only hide it.
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

async function schemaExists(client: pg.Client, name: string): Promise<boolean> {
  const { rows } = await client.query('select 1 from pg_namespace where nspname = $1', [name]);
  return rows.length > 0;
}

/** Step 1, before pg-boss starts: renames pg-boss 10's schema out of pg-boss 12's way. True when it did. */
export async function setAsidePgBoss10(connectionString: string): Promise<boolean> {
  return withClient(connectionString, async (client) => {
    const { rows: table } = await client.query(`select to_regclass('pgboss.version') as t`);
    if (table[0].t === null) return false;
    const { rows } = await client.query<{ version: number }>('select version from pgboss.version');
    if (rows[0]?.version !== PG_BOSS_10_VERSION) return false;
    if (await schemaExists(client, PG_BOSS_10_SCHEMA))
      throw new Error(
        `The job queue holds two pg-boss 10 schemas (pgboss and ${PG_BOSS_10_SCHEMA}): move or drop one by hand`,
      );
    await client.query(`alter schema pgboss rename to ${PG_BOSS_10_SCHEMA}`);
    return true;
  });
}

/**
 * Step 2, once pg-boss 12 runs and has created the application's queues: moves the jobs pg-boss 10 had not finished
 * into pg-boss 12's table, with their ids, payloads, priorities, attempts, last errors and singleton keys. A job that
 * was active (its worker stopped for the upgrade) goes back to `retry` at once, its interrupted run counted as an
 * attempt, as `JobQueue.recoverOrphans` does. Finished jobs, and jobs of queues the application no longer has, go
 * with the old schema, which is dropped in the same transaction.
 */
export async function movePgBoss10Jobs(
  connectionString: string,
): Promise<{ moved: number; dropped: number } | null> {
  return withClient(connectionString, async (client) => {
    if (!(await schemaExists(client, PG_BOSS_10_SCHEMA))) return null;
    const { rows: unfinished } = await client.query<{ n: number }>(
      `select count(*)::int as n from ${PG_BOSS_10_SCHEMA}.job where state in ('created', 'retry', 'active')`,
    );
    // The columns pg-boss 12 fills when it inserts a job (its insertJobs) take the queue's settings where pg-boss 10
    // had none: deletion, policy, dead letter, heartbeat. `on conflict do nothing`: a short queue's one waiting job
    // may have been sent already since pg-boss 12 started.
    const { rowCount } = await client.query(
      `insert into pgboss.job (id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff,
          expire_seconds, deletion_seconds, singleton_key, singleton_on, start_after, created_on, started_on,
          keep_until, output, policy, dead_letter, heartbeat_seconds)
        select o.id, o.name, o.priority, o.data,
            (case when o.state = 'active' then 'retry' else o.state::text end)::pgboss.job_state,
            o.retry_limit, o.retry_count, o.retry_delay, o.retry_backoff,
            greatest(1, extract(epoch from o.expire_in)::int), q.deletion_seconds, o.singleton_key, o.singleton_on,
            case when o.state = 'active' then now() else o.start_after end, o.created_on, o.started_on,
            o.keep_until, o.output, q.policy, q.dead_letter, q.heartbeat_seconds
          from ${PG_BOSS_10_SCHEMA}.job o join pgboss.queue q on q.name = o.name
          where o.state in ('created', 'retry', 'active')
        on conflict do nothing`,
    );
    await client.query(`drop schema ${PG_BOSS_10_SCHEMA} cascade`);
    const moved = rowCount ?? 0;
    return { moved, dropped: (unfinished[0]?.n ?? 0) - moved };
  });
}
