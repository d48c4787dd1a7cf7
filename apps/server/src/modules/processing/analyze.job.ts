import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition.ts';

/**
 * Refreshes the planner's statistics of the knowledge tables. The embedded PGlite runs no autovacuum, and without
 * statistics the planner takes a grown passage table for a tiny one and never chooses the HNSW index. Queued (at most
 * once at a time, a little after the last publish) whenever a file is published.
 */
export const analyzeKnowledgeJob = defineJob({
  name: 'knowledge.analyze',
  schema: z.object({}),
  retryLimit: 2,
  retryDelaySeconds: 30,
  expireInSeconds: 600,
  async handler(_data, ctx) {
    await ctx.db.execute(sql`analyze files, passages, passage_embeddings`);
  },
});

export const ANALYZE_DELAY_SECONDS = 30;
