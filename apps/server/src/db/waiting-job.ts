import { type SQL, sql } from 'drizzle-orm';

/**
 * The condition that a job of one of `names` is waiting, retrying or running for a row, as the sweeps ask it of
 * pg-boss's table: `matches` relates the job `j` to the row (its singleton key, or a field of its data).
 */
export function jobWaiting(names: string[], matches: SQL): SQL {
  return sql`exists (select 1 from pgboss.job j
    where j.name = any(${sql.param(names)}::text[]) and j.state in ('created', 'retry', 'active') and ${matches})`;
}
