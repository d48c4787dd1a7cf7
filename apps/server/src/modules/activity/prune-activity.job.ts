import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import { deleteActivityOlderThan } from './activity-log.queries.ts';

/** Rows one statement deletes: short statements keep the embedded database answering other requests meanwhile. */
export const PRUNE_BATCH = 1000;

/** Deletes activity entries older than the retention setting, batch by batch; returns how many it deleted. */
export async function pruneActivityLog(ctx: AppContext, batchSize = PRUNE_BATCH): Promise<number> {
  const { retentionDays } = (await ctx.settings.current()).activityLog;
  let deleted = 0;
  for (;;) {
    const n = await deleteActivityOlderThan(ctx.db, retentionDays, batchSize);
    deleted += n;
    if (n < batchSize) return deleted;
  }
}

/** Daily: the activity log keeps entries for the retention setting's days (default 180). */
export const pruneActivityJob = defineJob({
  name: 'activity.prune',
  schema: z.object({}),
  cron: '17 3 * * *',
  retryLimit: 3,
  retryDelaySeconds: 60,
  expireInSeconds: 15 * 60,
  async handler(_data, ctx) {
    const deleted = await pruneActivityLog(ctx);
    if (deleted > 0) ctx.log.info({ deleted }, 'deleted activity entries past their retention');
  },
});
