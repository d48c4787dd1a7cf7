import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { DbOrTx } from '../../db/database.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import { countStaleTermFrequencies } from '../search/term-frequencies.ts';
import { analyzeKnowledgeTables } from './file-runs.queries.ts';

/**
 * Refreshes what search knows about the knowledge: the planner's statistics of the knowledge tables (the embedded
 * PGlite runs no autovacuum, and without statistics the planner takes a grown passage table for a tiny one and never
 * chooses the HNSW index) and the term frequencies of the companies whose published passages changed.
 */
export async function refreshKnowledgeStatistics(db: DbOrTx): Promise<void> {
  await analyzeKnowledgeTables(db);
  await countStaleTermFrequencies(db);
}

/** Queued whenever a file is published or deleted; runs ANALYZE_DELAY_SECONDS after the first change it covers. */
export const analyzeKnowledgeJob = defineJob({
  name: 'knowledge.analyze',
  schema: z.object({}),
  policy: 'short',
  retryLimit: 2,
  retryDelaySeconds: 30,
  expireInSeconds: 600,
  async handler(_data, ctx) {
    await refreshKnowledgeStatistics(ctx.db);
  },
});

export const ANALYZE_DELAY_SECONDS = 30;

/** Queues the refresh, unless one is already waiting (the queue's 'short' policy drops the send). */
export async function queueKnowledgeAnalysis(ctx: AppContext): Promise<void> {
  await ctx.jobs.send(analyzeKnowledgeJob, {}, { startAfter: ANALYZE_DELAY_SECONDS });
}
