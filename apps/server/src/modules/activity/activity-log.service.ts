import { Readable } from 'node:stream';
import type { ActivityFilter } from '@werkwissen/shared';
import { and, count, desc, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import { activityLogAccess } from '../../access/activity-log.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { containsPattern } from '../../db/like.ts';
import { activityLog, companies } from '../../db/schema/index.ts';
import { dayAfter, dayStart } from '../reports/report-scope.ts';
import { activityCsvHeader, activityCsvLine } from './activity-csv.ts';

/** Rows the CSV export reads per statement: the export never holds more than this many entries at once. */
export const EXPORT_BATCH = 1000;

const STATUS_RANGES = { '2xx': [200, 300], '4xx': [400, 500], '5xx': [500, 600] } as const;

/** The entries the actor's ActivityLog rules let them read (all, for the operator), narrowed by the filters. */
function filtered(actor: Actor, filter: ActivityFilter & { q?: string }): SQL | undefined {
  const like = (term: string | undefined) => (term ? containsPattern(term) : undefined);
  const q = like(filter.q);
  const range = filter.status ? STATUS_RANGES[filter.status] : undefined;
  return and(
    activityLogAccess.where(actor, 'read'),
    q
      ? or(
          ilike(activityLog.action, q),
          ilike(activityLog.endpoint, q),
          ilike(activityLog.actorEmail, q),
          ilike(activityLog.impersonatorEmail, q),
          ilike(activityLog.ip, q),
        )
      : undefined,
    filter.from ? gte(activityLog.createdAt, dayStart(filter.from)) : undefined,
    filter.to ? lt(activityLog.createdAt, dayAfter(filter.to)) : undefined,
    filter.actor
      ? or(
          ilike(activityLog.actorEmail, like(filter.actor)!),
          ilike(activityLog.impersonatorEmail, like(filter.actor)!),
        )
      : undefined,
    filter.company ? ilike(companies.name, like(filter.company)!) : undefined,
    filter.action ? ilike(activityLog.action, like(filter.action)!) : undefined,
    range ? and(gte(activityLog.statusCode, range[0]), lt(activityLog.statusCode, range[1])) : undefined,
  );
}

const columns = { entry: activityLog, companyName: companies.name };
type Row = { entry: typeof activityLog.$inferSelect; companyName: string | null };

export const presentEntry = ({ entry: r, companyName }: Row) => ({
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
  const where = filtered(actor, query);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select(columns)
      .from(activityLog)
      .leftJoin(companies, eq(companies.id, activityLog.companyId))
      .where(where)
      .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    ctx.db
      .select({ n: count() })
      .from(activityLog)
      .leftJoin(companies, eq(companies.id, activityLog.companyId))
      .where(where),
  ]);
  return { items: rows.map(presentEntry), total: total?.n ?? 0, page, pageSize };
}

/**
 * The filtered log as CSV, newest first, read in batches of `EXPORT_BATCH` after the last entry sent (keyset, so a
 * long log costs neither memory nor ever slower offsets); the next batch is read only when the client takes more.
 */
export function exportActivity(ctx: AppContext, actor: Actor, filter: ActivityFilter): Readable {
  const where = filtered(actor, filter);
  async function* lines() {
    yield activityCsvHeader();
    await ctx.activity.flush();
    // The cursor keeps the time as PostgreSQL wrote it: a JavaScript date drops the microseconds, and entries of the
    // same millisecond would be skipped.
    let after: { at: string; id: string } | undefined;
    for (;;) {
      const rows = await ctx.db
        .select({ ...columns, at: sql<string>`${activityLog.createdAt}::text` })
        .from(activityLog)
        .leftJoin(companies, eq(companies.id, activityLog.companyId))
        .where(
          and(
            where,
            after
              ? sql`(${activityLog.createdAt}, ${activityLog.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
        .limit(EXPORT_BATCH);
      if (rows.length > 0) yield rows.map((r) => activityCsvLine(presentEntry(r))).join('');
      if (rows.length < EXPORT_BATCH) return;
      const last = rows.at(-1)!;
      after = { at: last.at, id: last.entry.id };
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
