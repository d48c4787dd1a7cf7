import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { DbOrTx } from '../../db/database.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import { countStaleTermFrequencies } from '../search/term-frequencies.ts';

/**
 * Refreshes what search knows about the knowledge: the planner's statistics of the knowledge tables (the embedded
 * PGlite runs no autovacuum, and without statistics the planner takes a grown passage table for a tiny one and never
 * chooses the HNSW index) and the term frequencies of the companies whose published passages changed.
 */
export async function refreshKnowledgeStatistics(db: DbOrTx): Promise<void> {
  await db.execute(sql`analyze files, passages, passage_embeddings`);
  await countStaleTermFrequencies(db);
}

/** Queued (at most once at a time, a little after the last change) whenever a file is published or deleted. */
export const analyzeKnowledgeJob = defineJob({
  name: 'knowledge.analyze',
  schema: z.object({}),
  retryLimit: 2,
  retryDelaySeconds: 30,
  expireInSeconds: 600,
  async handler(_data, ctx) {
    await refreshKnowledgeStatistics(ctx.db);
  },
});

export const ANALYZE_DELAY_SECONDS = 30;

/** Queues the refresh, unless one is already waiting. */
export async function queueKnowledgeAnalysis(ctx: AppContext): Promise<void> {
  await ctx.jobs.send(
    analyzeKnowledgeJob,
    {},
    { singletonKey: 'knowledge.analyze', startAfter: ANALYZE_DELAY_SECONDS },
  );
}
