import type { AdminCompany, UserKind } from '@werkwissen/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';

/** A company as the back office lists it: times as dates. */
export type CompanyRecord = Omit<AdminCompany, 'lastActivityAt' | 'suspendedAt' | 'createdAt'> & {
  lastActivityAt: Date | null;
  suspendedAt: Date | null;
  createdAt: Date;
};

interface CompanyRow extends Record<string, unknown> {
  id: string;
  name: string | null;
  data_manager_email: string | null;
  plan: AdminCompany['plan'];
  users: number;
  storage_bytes: string | number;
  last_activity_at: Date | string | null;
  suspended_at: Date | string | null;
  suspended_reason: string | null;
  created_at: Date | string;
}

const DATA_MANAGER: UserKind = 'DataManager';

const dateOrNull = (v: Date | string | null) => (v ? new Date(v) : null);

const record = (r: CompanyRow): CompanyRecord => ({
  id: r.id,
  name: r.name,
  dataManagerEmail: r.data_manager_email,
  plan: r.plan ?? null,
  users: r.users,
  storageBytes: Number(r.storage_bytes),
  lastActivityAt: dateOrNull(r.last_activity_at),
  suspendedAt: dateOrNull(r.suspended_at),
  suspendedReason: r.suspended_reason,
  createdAt: new Date(r.created_at),
});

const lastActivity = sql`(select max(a.created_at) from activity_log a where a.company_id = c.id)`;

const columns = sql`c.id, c.name, c.suspended_at, c.suspended_reason, c.created_at,
  (select u.email from users u where u.company_id = c.id and u.kind = ${DATA_MANAGER}
    order by u.created_at limit 1) as data_manager_email,
  (select s.plan from subscriptions s where s.company_id = c.id order by s.created_at desc limit 1) as plan,
  (select count(*)::int from users u where u.company_id = c.id) as users,
  (select coalesce(sum(f.size_bytes), 0)::bigint from files f where f.company_id = c.id) as storage_bytes,
  ${lastActivity} as last_activity_at`;

const ORDER: Record<string, SQL> = {
  name: sql`lower(c.name) asc nulls last`,
  '-name': sql`lower(c.name) desc nulls last`,
  createdAt: sql`c.created_at asc`,
  '-createdAt': sql`c.created_at desc`,
  lastActivityAt: sql`${lastActivity} asc nulls first`,
  '-lastActivityAt': sql`${lastActivity} desc nulls last`,
};

/**
 * One page of the companies `access` (a compiled Company rule on `companies c`) lets through, their name or data
 * manager's e-mail containing `q`, suspended or not if asked, in the order of `sort` (newest first by default).
 */
export async function companyList(
  db: DbOrTx,
  access: SQL,
  query: { page: number; pageSize: number; q?: string; sort?: string; suspended?: boolean },
): Promise<{ items: CompanyRecord[]; total: number }> {
  const like = query.q ? containsPattern(query.q) : null;
  const where = sql.join(
    [
      access,
      like
        ? sql`(c.name ilike ${like} or exists (select 1 from users u where u.company_id = c.id
            and u.kind = ${DATA_MANAGER} and u.email ilike ${like}))`
        : null,
      query.suspended === undefined ? null : sql`(c.suspended_at is not null) = ${query.suspended}`,
    ].filter((part): part is SQL => part !== null),
    sql` and `,
  );
  const order = ORDER[query.sort ?? '-createdAt'] ?? ORDER['-createdAt']!;
  const [items, total] = await Promise.all([
    db.execute<CompanyRow>(sql`select ${columns} from companies c where ${where}
      order by ${order}, c.id limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from companies c where ${where}`),
  ]);
  return { items: items.rows.map(record), total: total.rows[0]?.n ?? 0 };
}

/** The company if `access` (a compiled Company rule on `companies c`) lets it through. */
export async function companyById(
  db: DbOrTx,
  companyId: string,
  access: SQL,
): Promise<CompanyRecord | undefined> {
  const { rows } = await db.execute<CompanyRow>(sql`select ${columns} from companies c
    where c.id = ${companyId} and ${access}`);
  return rows[0] && record(rows[0]);
}

/** Suspends the company with a reason (keeping the first time it was), or, with null, resumes it. */
export async function setSuspension(db: DbOrTx, companyId: string, reason: string | null): Promise<void> {
  await db.execute(
    reason !== null
      ? sql`update companies set suspended_at = coalesce(suspended_at, now()),
          suspended_reason = ${reason}, updated_at = now() where id = ${companyId}`
      : sql`update companies set suspended_at = null, suspended_reason = null, updated_at = now()
          where id = ${companyId}`,
  );
}
