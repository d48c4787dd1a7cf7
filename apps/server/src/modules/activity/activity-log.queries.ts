import type { ActivityFilter } from '@werkwissen/shared';
import { and, count, desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import { activityLog, companies } from '../../db/schema/index.ts';
import { dayAfter, dayStart } from '../reports/report-scope.ts';

/** An activity entry with its company's name. */
export interface ActivityEntry {
  entry: typeof activityLog.$inferSelect;
  companyName: string | null;
}

/** What the log is narrowed by: the list's and the export's filters, and a search term. */
export type ActivityNarrowing = ActivityFilter & { q?: string | undefined };

const STATUS_RANGES = { '2xx': [200, 300], '4xx': [400, 500], '5xx': [500, 600] } as const;

/** The entries passing an access fragment, narrowed by the filters. */
function filtered(access: SQL, filter: ActivityNarrowing): SQL | undefined {
  const like = (term: string | undefined) => (term ? containsPattern(term) : undefined);
  const q = like(filter.q);
  const range = filter.status ? STATUS_RANGES[filter.status] : undefined;
  return and(
    access,
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

/** One page of the entries passing an access fragment and the filters, newest first, and how many there are. */
export async function activityPage(
  db: DbOrTx,
  access: SQL,
  filter: ActivityNarrowing,
  page: { limit: number; offset: number },
): Promise<{ items: ActivityEntry[]; total: number }> {
  const where = filtered(access, filter);
  const [items, [total]] = await Promise.all([
    db
      .select(columns)
      .from(activityLog)
      .leftJoin(companies, eq(companies.id, activityLog.companyId))
      .where(where)
      .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: count() })
      .from(activityLog)
      .leftJoin(companies, eq(companies.id, activityLog.companyId))
      .where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

/**
 * Where a batch of the log ended: the last entry's time as PostgreSQL wrote it (a JavaScript date drops the
 * microseconds, and entries of the same millisecond would be skipped) and its id.
 */
export interface ActivityCursor {
  at: string;
  id: string;
}

/**
 * Up to `limit` entries passing an access fragment and the filters, newest first, after `after` (keyset: a long log
 * never costs slower offsets), with the cursor of the last.
 */
export async function activityBatch(
  db: DbOrTx,
  access: SQL,
  filter: ActivityFilter,
  after: ActivityCursor | undefined,
  limit: number,
): Promise<{ entries: ActivityEntry[]; last: ActivityCursor | undefined }> {
  const rows = await db
    .select({ ...columns, at: sql<string>`${activityLog.createdAt}::text` })
    .from(activityLog)
    .leftJoin(companies, eq(companies.id, activityLog.companyId))
    .where(
      and(
        filtered(access, filter),
        after
          ? sql`(${activityLog.createdAt}, ${activityLog.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
    .limit(limit);
  const last = rows.at(-1);
  return {
    entries: rows.map(({ entry, companyName }) => ({ entry, companyName })),
    last: last && { at: last.at, id: last.entry.id },
  };
}

/** Deletes up to `limit` activity entries older than `days` days; how many it deleted. */
export async function deleteActivityOlderThan(db: DbOrTx, days: number, limit: number): Promise<number> {
  const old = db
    .select({ id: activityLog.id })
    .from(activityLog)
    .where(lt(activityLog.createdAt, sql`now() - make_interval(days => ${days})`))
    .limit(limit);
  const gone = await db
    .delete(activityLog)
    .where(inArray(activityLog.id, old))
    .returning({ id: activityLog.id });
  return gone.length;
}
