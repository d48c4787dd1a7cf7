import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import { syncConnectorJob } from './sync-connector.job.ts';

/**
 * Queues a sync of an active, idle connector: the state moves to `queued` in one statement, so that of parallel
 * requests exactly one queues it. Whether this call queued it.
 */
export async function requestSync(ctx: AppContext, connectorId: string): Promise<boolean> {
  const { rows } = await ctx.db.execute<{ id: string }>(sql`
    update connectors set sync_state = 'queued'
    where id = ${connectorId} and status = 'active' and sync_state = 'idle' returning id`);
  if (rows.length === 0) return false;
  await ctx.jobs.send(syncConnectorJob, { connectorId });
  return true;
}

/**
 * Syncs whose job is gone (the process stopped between the state change and the send, or the job failed for good
 * without finishing) are queued again; a sync that was `running` counts as interrupted. Never one with a job
 * waiting, retrying or active: that job goes on by itself.
 */
export async function resumeStrandedSyncs(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.db.execute<{ id: string }>(sql`
    update connectors c set sync_state = 'queued', sync_job_id = null,
      last_error = case when c.sync_state = 'running' then 'interrupted' else c.last_error end
    where c.sync_state in ('queued', 'running')
      and not exists (
        select 1 from pgboss.job j
        where j.name = ${syncConnectorJob.name} and j.state in ('created', 'retry', 'active')
          and j.data->>'connectorId' = c.id::text)
    returning c.id`);
  for (const row of rows) await ctx.jobs.send(syncConnectorJob, { connectorId: row.id });
  return rows.length;
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
    const { rows } = await ctx.db.execute<{ id: string }>(sql`
      update connectors set sync_state = 'queued'
      where status = 'active' and sync_state = 'idle'
        and coalesce(last_sync_at, created_at) + interval_minutes * interval '1 minute' <= now()
      returning id`);
    for (const row of rows) await ctx.jobs.send(syncConnectorJob, { connectorId: row.id });
  },
});
