import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import { graphBacklog, moveIntoGraph } from './passage-embeddings.queries.ts';

/**
 * Vectors moved into the graph per statement. One HNSW insert costs about 1.5 ms on PostgreSQL and 6 ms on PGlite
 * (measured at 4,096 vectors of 384 dimensions), and PGlite runs one statement at a time: a batch holds it for
 * well under a second.
 */
export const GRAPH_BATCH = 64;
/** How long one run moves vectors before a fresh job takes over (other jobs and a stopping worker get their turn). */
const RUN_MS = 20_000;
/** How soon after a publish the job looks, and how long it waits again while a company's upload is running. */
export const GRAPH_DELAY_SECONDS = 5;

/**
 * Fills the HNSW graphs in the background, so that indexing a file never waits for graph inserts (which cost more
 * than everything else of indexing put together). A company's upload is let finish first: while its files are
 * being processed and fewer of its vectors are pending than an exact scan takes, it waits GRAPH_DELAY_SECONDS and
 * looks again. Until a vector is in the graph, a search of a large scope finds it by scanning the pending rows
 * exactly (vector-search.ts).
 */
export const graphJob = defineJob({
  name: 'embedding.graph',
  schema: z.object({}),
  policy: 'short',
  retryLimit: 10,
  retryDelaySeconds: 5,
  expireInSeconds: 600,
  async handler(_data, ctx, run) {
    const until = Date.now() + RUN_MS;
    const exactScanMax = ctx.config.VECTOR_EXACT_SCAN_MAX;
    let waiting = false;
    for (const item of await graphBacklog(ctx.db, exactScanMax)) {
      if (item.busy && item.pending <= exactScanMax) {
        waiting = true;
        continue;
      }
      for (;;) {
        if (run.signal.aborted) return; // handed back by a stopping worker: the next run goes on from here
        if (Date.now() > until) {
          await ctx.jobs.send(graphJob, {});
          return;
        }
        if ((await moveIntoGraph(ctx.db, item.indexId, item.companyId, GRAPH_BATCH)) < GRAPH_BATCH) break;
      }
    }
    if (waiting) await ctx.jobs.send(graphJob, {}, { startAfter: GRAPH_DELAY_SECONDS });
  },
});

/** Queues the graph job (after a publish, a switch-over, a start), unless one is already waiting. */
export async function queueGraphJob(ctx: AppContext): Promise<void> {
  await ctx.jobs.send(graphJob, {}, { startAfter: GRAPH_DELAY_SECONDS });
}
