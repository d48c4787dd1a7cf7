import type { DataManager, DataManagerStatus, Language } from '@werkwissen/shared';
import { and, asc, count, desc, eq, ilike, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import { authSessions, companies, users } from '../../db/schema/index.ts';

/** A data manager as stored, with their company, its current plan and stored bytes, and their last sign-in. */
export interface DataManagerRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  language: Language;
  passwordHash: string | null;
  disabledAt: Date | null;
  createdAt: Date;
  companyId: string;
  companyName: string | null;
  suspendedAt: Date | null;
  plan: DataManager['plan'];
  storageBytes: number;
  lastSignInAt: Date | null;
}

// Subqueries with qualified names: inside them an interpolated column would render unqualified.
const currentPlan = sql<DataManager['plan']>`(select s.plan from subscriptions s
  where s.company_id = "users"."company_id" order by s.created_at desc limit 1)`;
const storageBytes = sql<number>`(select coalesce(sum(f.size_bytes), 0)::bigint from files f
  where f.company_id = "users"."company_id")`.mapWith(Number);
const lastSignInAt = sql<Date | null>`(select max(a.created_at) from auth_sessions a
  where a.user_id = "users"."id" and a.impersonator_session_id is null)`.mapWith(authSessions.createdAt);

const columns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  phone: users.phone,
  language: users.language,
  passwordHash: users.passwordHash,
  disabledAt: users.disabledAt,
  createdAt: users.createdAt,
  companyId: companies.id,
  companyName: companies.name,
  suspendedAt: companies.suspendedAt,
  plan: currentPlan,
  storageBytes,
  lastSignInAt,
};

const STATUS: Record<DataManagerStatus, SQL | undefined> = {
  deactivated: isNotNull(users.disabledAt),
  active: and(isNull(users.disabledAt), isNotNull(users.passwordHash)),
  invited: and(isNull(users.disabledAt), isNull(users.passwordHash)),
};

const SORTABLE = {
  lastName: users.lastName,
  email: users.email,
  createdAt: users.createdAt,
  companyName: companies.name,
};

const selectDataManagers = (db: DbOrTx) =>
  db.select(columns).from(users).innerJoin(companies, eq(companies.id, users.companyId));

/**
 * One page of the data managers `scope` (on `users`) lets through, their name, e-mail or company containing `q`, of
 * one status if given, sorted by `sort` (a column, `-` first for descending; the newest first by default).
 */
export async function dataManagerList(
  db: DbOrTx,
  scope: SQL | undefined,
  query: { page: number; pageSize: number; q?: string; sort?: string; status?: DataManagerStatus },
): Promise<{ items: DataManagerRow[]; total: number }> {
  const like = query.q ? containsPattern(query.q) : undefined;
  const where = and(
    scope,
    like
      ? or(
          ilike(users.email, like),
          ilike(users.firstName, like),
          ilike(users.lastName, like),
          ilike(companies.name, like),
          ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, like),
        )
      : undefined,
    query.status ? STATUS[query.status] : undefined,
  );
  const key = (query.sort?.replace(/^-/, '') ?? 'createdAt') as keyof typeof SORTABLE;
  const order = query.sort && !query.sort.startsWith('-') ? asc(SORTABLE[key]) : desc(SORTABLE[key]);
  const [items, [total]] = await Promise.all([
    selectDataManagers(db)
      .where(where)
      .orderBy(order, asc(users.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db
      .select({ n: count() })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** The data manager `id` if `scope` (on `users`) lets them through. */
export async function dataManagerById(
  db: DbOrTx,
  scope: SQL | undefined,
  id: string,
): Promise<DataManagerRow | undefined> {
  const [row] = await selectDataManagers(db).where(and(scope, eq(users.id, id)));
  return row;
}

/** Deactivates (keeping the first time) or reactivates the user `id` if `scope` (on `users`) lets them through. */
export async function setDataManagerDisabled(
  db: DbOrTx,
  id: string,
  scope: SQL | undefined,
  disabled: boolean,
): Promise<void> {
  await db
    .update(users)
    .set({ disabledAt: disabled ? sql`coalesce(${users.disabledAt}, now())` : null, updatedAt: new Date() })
    .where(and(scope, eq(users.id, id)));
}
