import { inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { activityLog } from '../../db/schema/index.ts';

/** Deletes up to `limit` activity entries older than `days` days; how many it deleted. */
export async function deleteActivityOlderThan(db: DbOrTx, days: number, limit: number): Promise<number> {
  const old = db
    .select({ id: activityLog.id })
    .from(activityLog)
    .where(lt(activityLog.createdAt, sql`now() - make_interval(days => ${days})`))
    .limit(limit);
  const gone = await db
    .delete(activityLog)
    .where(inArray(activityLog.id, old))
    .returning({ id: activityLog.id });
  return gone.length;
}
