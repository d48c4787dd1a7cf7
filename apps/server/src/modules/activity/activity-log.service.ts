import { Readable } from 'node:stream';
import type { ActivityFilter } from '@werkwissen/shared';
import { activityLogAccess } from '../../access/activity-log.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { activityCsvHeader, activityCsvLine } from './activity-csv.ts';
import {
  type ActivityCursor,
  type ActivityEntry,
  activityBatch,
  activityPage,
} from './activity-log.queries.ts';

/** Rows the CSV export reads per statement: the export never holds more than this many entries at once. */
export const EXPORT_BATCH = 1000;

export const presentEntry = ({ entry: r, companyName }: ActivityEntry) => ({
  id: r.id,
  action: r.action,
  method: r.method,
  endpoint: r.endpoint,
  statusCode: r.statusCode,
  actorUserId: r.actorUserId,
  actorEmail: r.actorEmail,
  impersonatorEmail: r.impersonatorEmail,
  companyId: r.companyId,
  companyName,
  ip: r.ip,
  requestId: r.requestId,
  changes: r.changes ?? null,
  createdAt: r.createdAt.toISOString(),
});
export type PresentedEntry = ReturnType<typeof presentEntry>;

/** One page of the activity log, newest first. */
export async function listActivity(
  ctx: AppContext,
  actor: Actor,
  query: ActivityFilter & { page: number; pageSize: number; q?: string },
) {
  // This process's entries still waiting for their batch belong in the answer.
  await ctx.activity.flush();
  const { page, pageSize } = query;
  const { items, total } = await activityPage(ctx.db, activityLogAccess.where(actor, 'read'), query, {
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return { items: items.map(presentEntry), total, page, pageSize };
}

/**
 * The filtered log as CSV, newest first, read in batches of `EXPORT_BATCH` after the last entry sent (keyset, so a
 * long log costs neither memory nor ever slower offsets); the next batch is read only when the client takes more.
 */
export function exportActivity(ctx: AppContext, actor: Actor, filter: ActivityFilter): Readable {
  const access = activityLogAccess.where(actor, 'read');
  async function* lines() {
    yield activityCsvHeader();
    await ctx.activity.flush();
    let after: ActivityCursor | undefined;
    for (;;) {
      const { entries, last } = await activityBatch(ctx.db, access, filter, after, EXPORT_BATCH);
      if (entries.length > 0) yield entries.map((r) => activityCsvLine(presentEntry(r))).join('');
      if (entries.length < EXPORT_BATCH) return;
      after = last;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
