import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition.ts';
import { currentIndex, switchOver } from './embedding-index.ts';
import { queueGraphJob } from './graph.job.ts';
import { vectorArrayParam } from './vector-param.ts';

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
      const { rows } = await ctx.db.execute<{ id: string; text: string; heading: string }>(sql`
        select p.id, p.text, array_to_string(p.heading_path, ' ') as heading from passages p
        where not exists (select 1 from passage_embeddings e where e.passage_id = p.id and e.index_id = ${indexId})
        limit ${BATCH}`);
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
      await ctx.db.execute(sql`
        insert into passage_embeddings (passage_id, index_id, company_id, file_id, generation, embedding)
        select p.id, ${indexId}, p.company_id, p.file_id, p.generation, v.embedding
        from unnest(${sql.param(rows.map((r) => r.id))}::uuid[], ${await vectorArrayParam(ctx.db, vectors)})
          as v(passage_id, embedding)
        join passages p on p.id = v.passage_id
        on conflict do nothing`);
    }
    await ctx.jobs.send(reembedJob, { indexId });
  },
});
