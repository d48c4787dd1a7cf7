import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/database.ts';
import { rateLimitEvents, spentBotChallenges } from '../../db/schema/index.ts';

/** Which events a limit counts: those of `bucket` + `key` within the last `windowSeconds`. */
export interface LimitWindow {
  bucket: string;
  key: string;
  windowSeconds: number;
}

/** Takes the advisory lock of a limit until `tx` ends (callers take several in a fixed order). */
export async function lockLimit(tx: Tx, lockKey: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 727276))`);
}

/** How many events a window holds, and in how many seconds its oldest leaves it (null when empty). */
export async function countWindow(
  db: DbOrTx,
  window: LimitWindow,
): Promise<{ count: number; waitSeconds: number | null }> {
  const { rows } = await db.execute<{ n: number | string; wait: number | string | null }>(sql`
    select count(*) as n,
      ceil(extract(epoch from min(created_at) + make_interval(secs => ${window.windowSeconds}) - now())) as wait
    from rate_limit_events
    where bucket = ${window.bucket} and key = ${window.key}
      and created_at > now() - make_interval(secs => ${window.windowSeconds})`);
  const row = rows[0];
  return { count: Number(row?.n ?? 0), waitSeconds: row?.wait == null ? null : Number(row.wait) };
}

/** Records one event per limit (one statement); their ids, in the order given. */
export async function insertEvents(
  db: DbOrTx,
  events: Array<{ bucket: string; key: string }>,
): Promise<string[]> {
  const { rows } = await db.execute<{ id: string }>(sql`insert into rate_limit_events (bucket, key)
    select * from unnest(${sql.param(events.map((e) => e.bucket))}::text[], ${sql.param(events.map((e) => e.key))}::text[])
    returning id`);
  return rows.map((r) => r.id);
}

export async function deleteEvents(db: DbOrTx, ids: string[]): Promise<void> {
  await db.delete(rateLimitEvents).where(inArray(rateLimitEvents.id, ids));
}

/** Deletes every event of `key` in these buckets. */
export async function deleteEventsOf(db: DbOrTx, buckets: string[], key: string): Promise<void> {
  await db
    .delete(rateLimitEvents)
    .where(and(inArray(rateLimitEvents.bucket, buckets), eq(rateLimitEvents.key, key)));
}

/** Deletes events older than any window (two days) and spent bot challenges past their expiry. */
export async function deleteExpired(db: DbOrTx): Promise<void> {
  await db.delete(rateLimitEvents).where(lt(rateLimitEvents.createdAt, sql`now() - interval '2 days'`));
  await db.delete(spentBotChallenges).where(lt(spentBotChallenges.expiresAt, sql`now()`));
}
