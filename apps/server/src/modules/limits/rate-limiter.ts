import { sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';

/** One limit: at most `max` events of `bucket` + `key` within `windowSeconds`. */
export interface Limit {
  bucket: string;
  key: string;
  max: number;
  windowSeconds: number;
}

export type SlotsTaken = {
  ok: true;
  /** The events just recorded, one per limit, to give back with `releaseSlots` when the attempt should not count. */
  ids: string[];
  /** How many events each limit had in its window before this one, in the order of the limits given. */
  before: number[];
};
export type SlotsRefused = { ok: false; limit: Limit; retryAfterSeconds: number };

let lastSweep = 0;

/**
 * Takes one slot of every limit at once, or none: under an advisory lock per limit (taken in a fixed order, so two
 * callers cannot deadlock), each window is counted and, when all have room, one event per limit is recorded in the
 * same transaction. Parallel requests, and several API processes on one database, therefore never get more than
 * `max` slots between them.
 */
export async function takeSlots(ctx: AppContext, limits: Limit[]): Promise<SlotsTaken | SlotsRefused> {
  const ordered = limits
    .map((limit, index) => ({ limit, index, lockKey: `${limit.bucket}\u0001${limit.key}` }))
    .sort((a, b) => (a.lockKey < b.lockKey ? -1 : a.lockKey > b.lockKey ? 1 : 0));
  const result = await ctx.db.transaction(async (tx): Promise<SlotsTaken | SlotsRefused> => {
    for (const { lockKey } of ordered) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 727276))`);
    }
    const before: number[] = new Array(limits.length).fill(0);
    for (const { limit, index } of ordered) {
      const { rows } = await tx.execute<{ n: number | string; wait: number | string | null }>(sql`
        select count(*) as n,
          ceil(extract(epoch from min(created_at) + make_interval(secs => ${limit.windowSeconds}) - now())) as wait
        from rate_limit_events
        where bucket = ${limit.bucket} and key = ${limit.key}
          and created_at > now() - make_interval(secs => ${limit.windowSeconds})`);
      const n = Number(rows[0]?.n ?? 0);
      if (n >= limit.max) {
        return { ok: false, limit, retryAfterSeconds: Math.max(1, Number(rows[0]?.wait ?? 1)) };
      }
      before[index] = n;
    }
    const { rows } = await tx.execute<{ id: string }>(sql`insert into rate_limit_events (bucket, key)
      select * from unnest(${sql.param(limits.map((l) => l.bucket))}::text[], ${sql.param(limits.map((l) => l.key))}::text[])
      returning id`);
    return { ok: true, ids: rows.map((r) => r.id), before };
  });
  await sweep(ctx);
  return result;
}

/** Gives slots back: the attempt they were taken for does not count (a successful sign-in, say). */
export async function releaseSlots(ctx: AppContext, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await ctx.db.execute(sql`delete from rate_limit_events where id = any(${sql.param(ids)}::uuid[])`);
}

/** Events older than any window and spent challenges past their expiry go, at most once a minute per process. */
async function sweep(ctx: AppContext): Promise<void> {
  if (Date.now() - lastSweep < 60_000) return;
  lastSweep = Date.now();
  await ctx.db.execute(sql`delete from rate_limit_events where created_at < now() - interval '2 days'`);
  await ctx.db.execute(sql`delete from spent_bot_challenges where expires_at < now()`);
}
