import { CONNECTOR_PAUSE_AFTER, type ConnectorFailure, type Language } from '@werkwissen/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.ts';
import { connectors, files } from '../../db/schema/index.ts';
import { jobWaiting } from '../../db/waiting-job.ts';

/**
 * How many of the division's files come from the connector. Written out: inside a select list drizzle names a column
 * without its table, which the subquery would read as its own.
 */
export const fileCounts = sql<number>`(select count(*)::int from files f where f.connector_id = connectors.id)`;

/** A file's next processing run. */
export const nextGeneration = sql<number>`${files.processingGeneration} + 1`;

/** Moves an active, idle connector to `queued` in one statement: whether this call did. */
export async function markQueued(db: Db, connectorId: string): Promise<boolean> {
  const { rows } = await db.execute<{ id: string }>(sql`
    update connectors set sync_state = 'queued'
    where id = ${connectorId} and status = 'active' and sync_state = 'idle' returning id`);
  return rows.length > 0;
}

/** Takes a queued sync for a job, or the running one the same job held before; null when neither. */
export async function claimSync(db: Db, connectorId: string, jobId: string) {
  const [row] = await db
    .update(connectors)
    .set({ syncState: 'running', syncJobId: jobId, syncStartedAt: new Date() })
    .where(
      and(
        eq(connectors.id, connectorId),
        sql`(${connectors.syncState} = 'queued' or (${connectors.syncState} = 'running' and ${connectors.syncJobId} = ${jobId}))`,
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Ends the job's sync: idle, its result or failure counted; paused after CONNECTOR_PAUSE_AFTER failures in a row, or at
 * once for a withdrawn consent.
 */
export async function finishSync(
  db: Db,
  connectorId: string,
  jobId: string,
  outcome: { result: typeof connectors.$inferSelect.lastResult; failure: ConnectorFailure | null },
) {
  const failed = outcome.failure !== null;
  const [row] = await db
    .update(connectors)
    .set({
      syncState: 'idle',
      syncJobId: null,
      lastSyncAt: new Date(),
      ...(outcome.result ? { lastResult: outcome.result } : {}),
      lastError: outcome.failure,
      failureCount: failed ? sql`${connectors.failureCount} + 1` : 0,
      // A withdrawn consent does not heal by retrying: it pauses at once.
      status:
        outcome.failure === 'revoked'
          ? 'paused'
          : failed
            ? sql`case when ${connectors.failureCount} + 1 >= ${CONNECTOR_PAUSE_AFTER} then 'paused' else ${connectors.status} end`
            : connectors.status,
    })
    .where(and(eq(connectors.id, connectorId), eq(connectors.syncJobId, jobId)))
    .returning();
  return row ?? null;
}

/**
 * Syncs whose job is gone, queued again (a `running` one counts as interrupted); never one with a job waiting,
 * retrying or active.
 */
export async function requeueStranded(db: Db, jobName: string): Promise<string[]> {
  const { rows } = await db.execute<{ id: string }>(sql`
    update connectors c set sync_state = 'queued', sync_job_id = null,
      last_error = case when c.sync_state = 'running' then 'interrupted' else c.last_error end
    where c.sync_state in ('queued', 'running')
      and not ${jobWaiting([jobName], sql`j.data->>'connectorId' = c.id::text`)}
    returning c.id`);
  return rows.map((r) => r.id);
}

/** Active, idle connectors whose interval has passed since their last sync, moved to `queued`. */
export async function queueDue(db: Db): Promise<string[]> {
  const { rows } = await db.execute<{ id: string }>(sql`
    update connectors set sync_state = 'queued'
    where status = 'active' and sync_state = 'idle'
      and coalesce(last_sync_at, created_at) + interval_minutes * interval '1 minute' <= now()
    returning id`);
  return rows.map((r) => r.id);
}

/** Whom a paused connector's mail goes to, and its division's name. */
export async function ownerOf(db: DbOrTx, ownerId: string, divisionId: string) {
  const { rows } = await db.execute<{
    email: string;
    first_name: string | null;
    language: Language;
    division: string;
  }>(
    sql`select u.email, u.first_name, u.language, d.name as division
        from users u, divisions d where u.id = ${ownerId} and d.id = ${divisionId}`,
  );
  return rows[0] ?? null;
}
