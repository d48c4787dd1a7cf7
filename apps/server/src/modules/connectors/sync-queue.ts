import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import { markQueued, queueDue, requeueStranded } from './connectors.queries.ts';
import { syncConnectorJob } from './sync-connector.job.ts';

/**
 * Queues a sync of an active, idle connector: the state moves to `queued` in one statement, so that of parallel
 * requests exactly one queues it. Whether this call queued it.
 */
export async function requestSync(ctx: AppContext, connectorId: string): Promise<boolean> {
  if (!(await markQueued(ctx.db, connectorId))) return false;
  await ctx.jobs.send(syncConnectorJob, { connectorId });
  return true;
}

/**
 * Syncs whose job is gone (the process stopped between the state change and the send, or the job failed for good
 * without finishing) are queued again; a sync that was `running` counts as interrupted. Never one with a job
 * waiting, retrying or active: that job goes on by itself.
 */
export async function resumeStrandedSyncs(ctx: AppContext): Promise<number> {
  const ids = await requeueStranded(ctx.db, syncConnectorJob.name);
  for (const connectorId of ids) await ctx.jobs.send(syncConnectorJob, { connectorId });
  return ids.length;
}

/**
 * Every minute: queues the syncs that are due (an active connector whose interval has passed since its last sync)
 * and takes up stranded ones.
 */
export const scheduleSyncsJob = defineJob({
  name: 'connector.schedule',
  schema: z.object({}),
  retryLimit: 1,
  retryDelaySeconds: 30,
  expireInSeconds: 5 * 60,
  policy: 'short',
  cron: '* * * * *',
  async handler(_data, ctx) {
    await resumeStrandedSyncs(ctx);
    for (const connectorId of await queueDue(ctx.db)) await ctx.jobs.send(syncConnectorJob, { connectorId });
  },
});
