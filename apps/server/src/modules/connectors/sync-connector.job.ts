import { CONNECTOR_PAUSE_AFTER, type ConnectorFailure, type ConnectorSyncResult } from '@werkwissen/shared';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { connectors } from '../../db/schema/index.ts';
import { defineJob, type JobRun } from '../../jobs/job-definition.ts';
import { mailPausedConnector } from './connector-mail.ts';
import { claimSync, finishSync } from './connectors.queries.ts';
import { openSource } from './open-source.ts';
import { sourceFailure } from './source-client.ts';
import { type ConnectorRow, runSync, type SyncPaths } from './sync.service.ts';

/** Reasons a later attempt may not meet: the sync is retried with backoff before it counts as failed. */
const TRANSIENT: readonly ConnectorFailure[] = ['unreachable', 'protocol', 'interrupted'];

/** Ends this job's sync: idle again, with its counts, or its failure (the connector pauses after too many). */
async function finish(
  ctx: AppContext,
  connector: ConnectorRow,
  run: JobRun,
  outcome: { result: ConnectorSyncResult | null; paths?: SyncPaths; failure: ConnectorFailure | null },
): Promise<void> {
  const failed = outcome.failure !== null;
  const row = await finishSync(ctx.db, connector.id, run.id, {
    result: outcome.result,
    failure: outcome.failure,
  });
  if (!row) return;
  // Where each file came from: the source and the paths the sync added, changed, renamed and removed (a long list
  // is cut, its counts are in the connector's result).
  const cut = <T>(list: T[] = []) => list.slice(0, 100);
  ctx.activity.add({
    companyId: row.companyId,
    action: failed ? 'connectorSyncFailed' : 'connectorSynced',
    method: 'JOB',
    endpoint: `/connectors/${row.id}`,
    statusCode: failed ? 500 : 200,
    changes: {
      before: null,
      after: {
        connector: row.name,
        source: `${row.url}${row.folder}`,
        ...(outcome.paths
          ? {
              added: cut(outcome.paths.added),
              changed: cut(outcome.paths.changed),
              renamed: cut(outcome.paths.renamed),
              removed: cut(outcome.paths.removed),
            }
          : {}),
        ...(failed ? { failure: outcome.failure } : {}),
      },
    },
  });
  // Mailed once, when it pauses: after the failures in a row, or at once when the consent was withdrawn.
  const pausedNow = row.failureCount === CONNECTOR_PAUSE_AFTER || outcome.failure === 'revoked';
  if (failed && row.status === 'paused' && pausedNow) await mailPausedConnector(ctx, row);
}

/**
 * One sync of a connector (`runSync`). A source that cannot be reached is retried with backoff (retryLimit); a
 * refused login, a missing folder or the policy fail at once; a withdrawn consent (`revoked`) pauses it at once. A worker stopping hands the job back: it stays
 * `running` under this job's id and the retry (here or on another worker) takes it over.
 */
export const syncConnectorJob = defineJob({
  name: 'connector.sync',
  schema: z.object({ connectorId: z.uuid() }),
  retryLimit: 3,
  retryDelaySeconds: 30,
  expireInSeconds: 30 * 60,
  async handler({ connectorId }, ctx, run) {
    // A queued sync, or the running one this same job held before (a retry, also after the worker died); any other job
    // finds nothing and ends, so two syncs of one connector never run at once.
    const connector = await claimSync(ctx.db, connectorId, run.id);
    if (!connector) return;
    try {
      const { result, paths, stoppedBy } = await runSync(
        ctx,
        connector,
        await openSource(ctx, connector, run.signal),
        run.signal,
      );
      await finish(ctx, connector, run, { result, paths, failure: stoppedBy?.reason ?? null });
    } catch (error) {
      if (run.signal.aborted) return;
      const failure = sourceFailure(error);
      if (TRANSIENT.includes(failure.reason) && !run.isFinalAttempt) {
        // Seen at once; the retry keeps the sync running under this job.
        await ctx.db
          .update(connectors)
          .set({ lastError: failure.reason })
          .where(and(eq(connectors.id, connectorId), eq(connectors.syncJobId, run.id)));
        throw error;
      }
      ctx.log.warn({ err: error, connectorId }, 'a connector sync failed');
      await finish(ctx, connector, run, { result: null, failure: failure.reason });
    }
  },
});
