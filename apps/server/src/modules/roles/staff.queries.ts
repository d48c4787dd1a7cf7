import type { AbilityRule, Language, STAFF_STATUSES, StaffMember, UserKind } from '@werkwissen/shared';
import { and, asc, count, eq, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import { authSessions, roles, userRoles, users } from '../../db/schema/index.ts';

/** A staff member as stored: times as dates. */
export type StaffRecord = Omit<StaffMember, 'lastSignInAt' | 'createdAt'> & {
  lastSignInAt: Date | null;
  createdAt: Date;
};

export type StaffStatus = (typeof STAFF_STATUSES)[number];
export type StaffSort = 'lastName' | 'email' | 'lastSignInAt' | 'createdAt';

/** The kinds of the operator's users. */
const PLATFORM_KINDS: UserKind[] = ['Administrator', 'Staff'];

/** The operator's users (of no company) that `access` (a compiled User rule, e.g. `userAccess.where`) lets through. */
export const platformUsers = (access: SQL): SQL =>
  and(inArray(users.kind, PLATFORM_KINDS), isNull(users.companyId), access)!;

// Qualified by hand: inside a subquery an interpolated column of the selected table renders unqualified ("id").
const lastSignInAt = sql<Date | null>`(select max(s.created_at) from auth_sessions s
  where s.user_id = "users"."id")`.mapWith(authSessions.createdAt);

const columns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  kind: users.kind,
  language: users.language,
  hasPassword: sql<boolean>`${users.passwordHash} is not null`,
  disabled: sql<boolean>`${users.disabledAt} is not null`,
  createdAt: users.createdAt,
  roles: sql<Array<{ id: string; name: string; kind: UserKind | null }> | null>`(select
      json_agg(json_build_object('id', r.id, 'name', r.name, 'kind', r.kind) order by r.name)
    from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = "users"."id")`,
  lastSignInAt,
};

const record = (r: {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  kind: UserKind;
  language: Language;
  hasPassword: boolean;
  disabled: boolean;
  createdAt: Date;
  roles: StaffRecord['roles'] | null;
  lastSignInAt: Date | null;
}): StaffRecord => ({
  id: r.id,
  email: r.email,
  firstName: r.firstName,
  lastName: r.lastName,
  kind: r.kind,
  language: r.language,
  status: r.disabled ? 'deactivated' : r.hasPassword ? 'active' : 'invited',
  roles: r.roles ?? [],
  lastSignInAt: r.lastSignInAt,
  createdAt: r.createdAt,
});

const SORTS: Record<StaffSort, SQL> = {
  lastName: sql`lower(${users.lastName})`,
  email: sql`lower(${users.email})`,
  lastSignInAt,
  createdAt: sql`${users.createdAt}`,
};

const STATUS: Record<StaffStatus, SQL | undefined> = {
  invited: and(isNull(users.passwordHash), isNull(users.disabledAt)),
  active: and(isNotNull(users.passwordHash), isNull(users.disabledAt)),
  deactivated: isNotNull(users.disabledAt),
};

/** One page of the users in `scope`, their name or e-mail containing `q`, of one status if given. */
export async function staffList(
  db: DbOrTx,
  scope: SQL,
  query: {
    page: number;
    pageSize: number;
    q?: string;
    status?: StaffStatus;
    sort: StaffSort;
    descending: boolean;
  },
): Promise<{ items: StaffRecord[]; total: number }> {
  const like = query.q ? containsPattern(query.q) : null;
  const where = and(
    scope,
    like
      ? or(ilike(users.email, like), ilike(users.firstName, like), ilike(users.lastName, like))
      : undefined,
    query.status ? STATUS[query.status] : undefined,
  );
  const order = query.descending ? sql`desc nulls last` : sql`asc nulls last`;
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(users)
      .where(where)
      .orderBy(sql`${SORTS[query.sort]} ${order}`, asc(users.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { items: rows.map(record), total: total?.n ?? 0 };
}

/** The user `staffId` when `scope` (if given) lets them through. */
export async function staffMemberById(
  db: DbOrTx,
  staffId: string,
  scope?: SQL,
): Promise<StaffRecord | undefined> {
  const [row] = await db
    .select(columns)
    .from(users)
    .where(and(scope, eq(users.id, staffId)));
  return row && record(row);
}

/** The roles of these ids that exist, with their kind and rules. */
export async function rolesByIds(
  db: DbOrTx,
  roleIds: string[],
): Promise<Array<{ id: string; kind: UserKind | null; rules: AbilityRule[] }>> {
  if (roleIds.length === 0) return [];
  return db
    .select({ id: roles.id, kind: roles.kind, rules: roles.rules })
    .from(roles)
    .where(inArray(roles.id, roleIds));
}

/** Gives the user exactly these roles. */
export async function replaceUserRoles(db: DbOrTx, userId: string, roleIds: string[]): Promise<void> {
  await db.delete(userRoles).where(eq(userRoles.userId, userId));
  const unique = [...new Set(roleIds)];
  if (unique.length > 0) await db.insert(userRoles).values(unique.map((roleId) => ({ userId, roleId })));
}

export async function userNames(
  db: DbOrTx,
  userId: string,
): Promise<{ firstName: string; lastName: string } | undefined> {
  const [names] = await db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId));
  return names;
}

/** Stores a user of the operator (no company) without a password yet; their id. */
export async function insertPlatformUser(
  db: DbOrTx,
  user: { kind: UserKind; email: string; firstName: string; lastName: string; language: Language },
): Promise<string> {
  const [row] = await db
    .insert(users)
    .values({ ...user, companyId: null })
    .returning({ id: users.id });
  return row!.id;
}

export async function updateStaffFields(
  db: DbOrTx,
  staffId: string,
  fields: { firstName?: string; lastName?: string; language?: Language; kind?: UserKind },
): Promise<void> {
  await db
    .update(users)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(users.id, staffId));
}

/** Marks the user disabled (keeping the first time they were). */
export async function disableUser(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ disabledAt: sql`coalesce(${users.disabledAt}, now())`, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

export async function enableUser(db: DbOrTx, userId: string): Promise<void> {
  await db.update(users).set({ disabledAt: null, updatedAt: sql`now()` }).where(eq(users.id, userId));
}

export async function deleteUser(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}
