import type { AppContext } from '../../app-context.ts';
import { countWindow, deleteEvents, deleteExpired, insertEvents, lockLimit } from './rate-limits.queries.ts';

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
      await lockLimit(tx, lockKey);
    }
    const before: number[] = new Array(limits.length).fill(0);
    for (const { limit, index } of ordered) {
      const { count, waitSeconds } = await countWindow(tx, limit);
      if (count >= limit.max) return { ok: false, limit, retryAfterSeconds: Math.max(1, waitSeconds ?? 1) };
      before[index] = count;
    }
    return { ok: true, ids: await insertEvents(tx, limits), before };
  });
  await sweep(ctx);
  return result;
}

/** Gives slots back: the attempt they were taken for does not count (a successful sign-in, say). */
export async function releaseSlots(ctx: AppContext, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await deleteEvents(ctx.db, ids);
}

/** Events older than any window and spent challenges past their expiry go, at most once a minute per process. */
async function sweep(ctx: AppContext): Promise<void> {
  if (Date.now() - lastSweep < 60_000) return;
  lastSweep = Date.now();
  await deleteExpired(ctx.db);
}
