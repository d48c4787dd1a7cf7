import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import { reformatsRunning, restartOlderFormats } from './file-runs.queries.ts';
import { PASSAGE_FORMAT } from './passage-writer.ts';
import { extractFileJob, sendFileStep } from './process-file.jobs.ts';

/** Files started per run; the next run waits until they are through, so uploads are never kept waiting long. */
const BATCH = 10;
/** Seconds between runs while files of an older format remain. */
const PAUSE_SECONDS = 30;

/**
 * Reprocesses the ready files whose passages are of an older format, a few at a time: each gets a new run (its
 * published passages keep answering until the new ones are published, as when a user retries a file), and the job
 * queues itself again until none is left. While a batch is still being processed it only waits.
 */
export const reformatJob = defineJob({
  name: 'knowledge.reformat',
  schema: z.object({}),
  policy: 'short',
  retryLimit: 3,
  retryDelaySeconds: 60,
  expireInSeconds: 300,
  async handler(_data, ctx) {
    if ((await reformatsRunning(ctx.db, PASSAGE_FORMAT)) > 0) {
      await queueReformat(ctx, PAUSE_SECONDS);
      return;
    }
    const rows = await restartOlderFormats(ctx.db, PASSAGE_FORMAT, BATCH);
    for (const row of rows) await sendFileStep(ctx, extractFileJob, row.id, row.generation);
    if (rows.length > 0) {
      ctx.log.info({ files: rows.length }, 'reprocessing files written in an older passage format');
      await queueReformat(ctx, PAUSE_SECONDS);
    }
  },
});

/** Queues a run (after `delaySeconds`), unless one is already waiting. */
export async function queueReformat(ctx: AppContext, delaySeconds = 0): Promise<void> {
  await ctx.jobs.send(reformatJob, {}, delaySeconds > 0 ? { startAfter: delaySeconds } : {});
}
