import type { Language } from '@werkwissen/shared';
import { and, asc, count, desc, eq, ilike, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import { users, type userTokens } from '../../db/schema/index.ts';

/** An employee as stored, with their divisions by name. */
export interface EmployeeRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  language: Language;
  passwordHash: string | null;
  createdAt: Date;
  divisions: Array<{ id: string; name: string }>;
}

const SET_PASSWORD: (typeof userTokens.$inferSelect)['purpose'] = 'set_password';

// Written with qualified names: inside a subquery an interpolated column would render unqualified ("id").
const divisionList = sql<Array<{ id: string; name: string }>>`coalesce((
  select jsonb_agg(jsonb_build_object('id', d.id, 'name', d.name) order by lower(d.name))
  from employee_divisions ed join divisions d on d.id = ed.division_id
  where ed.user_id = "users"."id"), '[]'::jsonb)`;

const columns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  phone: users.phone,
  language: users.language,
  passwordHash: users.passwordHash,
  createdAt: users.createdAt,
  divisions: divisionList,
};

const SORTABLE = { lastName: users.lastName, email: users.email, createdAt: users.createdAt };

/**
 * One page of the users `scope` lets through, their name or e-mail containing `q`, sorted by `sort` (a column, `-`
 * first for descending; by last name by default).
 */
export async function employeeList(
  db: DbOrTx,
  scope: SQL | undefined,
  query: { page: number; pageSize: number; q?: string; sort?: string },
): Promise<{ items: EmployeeRow[]; total: number }> {
  const like = query.q ? containsPattern(query.q) : undefined;
  const where = and(
    scope,
    like
      ? or(ilike(users.email, like), ilike(users.firstName, like), ilike(users.lastName, like))
      : undefined,
  );
  const key = (query.sort?.replace(/^-/, '') ?? 'lastName') as keyof typeof SORTABLE;
  const order = query.sort?.startsWith('-') ? desc(SORTABLE[key]) : asc(SORTABLE[key]);
  const [items, [total]] = await Promise.all([
    db
      .select(columns)
      .from(users)
      .where(where)
      .orderBy(order, asc(users.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** The employee `employeeId` if `scope` lets them through. */
export async function employeeById(
  db: DbOrTx,
  employeeId: string,
  scope: SQL | undefined,
): Promise<EmployeeRow | undefined> {
  const [row] = await db
    .select(columns)
    .from(users)
    .where(and(scope, eq(users.id, employeeId)));
  return row;
}

/**
 * Up to `limit` employees of a company still waiting for their invitation (no password, never sent a set-password
 * link), the oldest first.
 */
export async function employeesAwaitingInvitation(
  db: DbOrTx,
  companyId: string,
  limit: number,
): Promise<Array<typeof users.$inferSelect>> {
  return db
    .select()
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        eq(users.kind, 'Employee'),
        isNull(users.passwordHash),
        sql`not exists (select 1 from user_tokens t where t.user_id = "users"."id" and t.purpose = ${SET_PASSWORD})`,
      ),
    )
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(limit);
}
