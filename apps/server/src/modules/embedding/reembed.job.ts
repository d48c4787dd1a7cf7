import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition.ts';
import { currentIndex, switchOver } from './embedding-index.ts';
import { queueGraphJob } from './graph.job.ts';
import { insertPassageVectors, passagesWithoutVector } from './passage-embeddings.queries.ts';

const BATCH = 64;
const BATCHES_PER_RUN = 25;

/**
 * Fills a building embedding index with vectors for every passage (in batches, so that other requests get their
 * turn), then switches search over to it. Runs in slices and re-queues itself; a crash resumes where it stopped.
 */
export const reembedJob = defineJob({
  name: 'embedding.reembed',
  schema: z.object({ indexId: z.number().int() }),
  retryLimit: 10,
  retryDelaySeconds: 5,
  expireInSeconds: 600,
  async handler({ indexId }, ctx, run) {
    const index = await currentIndex(ctx);
    if (!index || index.id !== indexId || index.status !== 'building') return;
    for (let n = 0; n < BATCHES_PER_RUN; n++) {
      if (run.signal.aborted) return; // handed back by a stopping worker: the next run goes on from here
      const rows = await passagesWithoutVector(ctx.db, indexId, BATCH);
      if (rows.length === 0) {
        await switchOver(ctx, index);
        await queueGraphJob(ctx);
        ctx.log.info({ indexId, signature: index.signature }, 'embedding index rebuilt and active');
        return;
      }
      const vectors = await ctx.embedder.embed(
        rows.map((r) => `${r.heading}\n${r.text}`.trim()),
        'passage',
      );
      await insertPassageVectors(
        ctx.db,
        indexId,
        rows.map((r) => r.id),
        vectors,
      );
    }
    await ctx.jobs.send(reembedJob, { indexId });
  },
});
