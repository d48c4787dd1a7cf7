import type { AbilityRule, Role, RoleHolder, UserKind } from '@werkwissen/shared';
import {
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  ilike,
  inArray,
  isNotNull,
  isNull,
  ne,
  or,
  sql,
} from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import { companies, roles, userRoles, users } from '../../db/schema/index.ts';

/** A role as stored, seen by one caller: `heldByCaller` is theirs. */
export type RoleRecord = Omit<Role, 'updatedAt'> & { updatedAt: Date };

export interface Page {
  page: number;
  pageSize: number;
}

export type RoleSort = 'name' | 'holderCount';

// Qualified by hand: inside a subquery an interpolated column of the selected table renders unqualified ("id").
const holderCount = sql<number>`(select count(*) from user_roles ur where ur.role_id = "roles"."id")`.mapWith(
  Number,
);

const roleColumns = (callerId: string) => ({
  id: roles.id,
  name: roles.name,
  kind: roles.kind,
  description: roles.description,
  rules: roles.rules,
  isSystem: roles.isSystem,
  updatedAt: roles.updatedAt,
  holderCount,
  heldByCaller: sql<boolean>`exists (select 1 from user_roles ur
    where ur.role_id = "roles"."id" and ur.user_id = ${callerId})`,
});

const nameContains = (q: string | undefined) => (q ? ilike(roles.name, containsPattern(q)) : undefined);

/** One page of roles, their names containing `q`, sorted by name or by how many hold them. */
export async function roleList(
  db: DbOrTx,
  callerId: string,
  query: Page & { q?: string; sort: RoleSort; descending: boolean },
): Promise<{ items: RoleRecord[]; total: number }> {
  const where = nameContains(query.q);
  const key = query.sort === 'holderCount' ? holderCount : sql`lower(${roles.name})`;
  const [items, [total]] = await Promise.all([
    db
      .select(roleColumns(callerId))
      .from(roles)
      .where(where)
      .orderBy(query.descending ? desc(key) : asc(key), asc(roles.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(roles).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

export async function roleById(
  db: DbOrTx,
  callerId: string,
  roleId: string,
): Promise<RoleRecord | undefined> {
  const [role] = await db.select(roleColumns(callerId)).from(roles).where(eq(roles.id, roleId));
  return role;
}

/** One page of the people holding a role, their name or e-mail containing `q`. */
export async function roleHolderList(
  db: DbOrTx,
  roleId: string,
  query: Page & { q?: string },
): Promise<{ items: RoleHolder[]; total: number }> {
  const like = query.q ? containsPattern(query.q) : null;
  const where = and(
    eq(userRoles.roleId, roleId),
    like
      ? or(ilike(users.email, like), ilike(users.firstName, like), ilike(users.lastName, like))
      : undefined,
  );
  const [items, [total]] = await Promise.all([
    db
      .select({
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        kind: users.kind,
        companyName: companies.name,
        active: sql<boolean>`${users.disabledAt} is null`,
      })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .leftJoin(companies, eq(companies.id, users.companyId))
      .where(where)
      .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, users.id)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(userRoles).innerJoin(users, eq(users.id, userRoles.userId)).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** Whether another role than `except` has this name, in any case. */
export async function roleNameTaken(db: DbOrTx, name: string, except: string | null): Promise<boolean> {
  const [taken] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(sql`lower(${roles.name}) = lower(${name})`, except ? ne(roles.id, except) : undefined))
    .limit(1);
  return taken !== undefined;
}

export interface RoleContent {
  name: string;
  description: string;
  rules: AbilityRule[];
}

/** Stores a custom role; its id. */
export async function insertRole(db: DbOrTx, role: RoleContent): Promise<string> {
  const [row] = await db.insert(roles).values(role).returning({ id: roles.id });
  return row!.id;
}

export async function updateRoleContent(db: DbOrTx, roleId: string, role: RoleContent): Promise<void> {
  await db
    .update(roles)
    .set({ ...role, updatedAt: sql`now()` })
    .where(eq(roles.id, roleId));
}

export async function deleteRoleRow(db: DbOrTx, roleId: string): Promise<void> {
  await db.delete(roles).where(eq(roles.id, roleId));
}

/** Whether the user holds one of these roles. */
export async function holdsAnyRole(db: DbOrTx, userId: string, roleIds: string[]): Promise<boolean> {
  if (roleIds.length === 0) return false;
  const [held] = await db
    .select({ roleId: userRoles.roleId })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), inArray(userRoles.roleId, roleIds)))
    .limit(1);
  return held !== undefined;
}

/** An active user: enabled, with a password to sign in with. */
const activeUser = and(isNull(users.disabledAt), isNotNull(users.passwordHash));

/** Whether an active user holds the role of this kind. */
export async function activeHolderOfKindExists(db: DbOrTx, kind: UserKind): Promise<boolean> {
  const [holder] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(roles.kind, kind), activeUser))
    .limit(1);
  return holder !== undefined;
}

/** The rules of each role held by an active operator (a user of no company). */
export async function rulesHeldByActiveOperators(db: DbOrTx): Promise<AbilityRule[][]> {
  const held = await db
    .select({ rules: roles.rules })
    .from(roles)
    .where(
      exists(
        db
          .select({ one: sql`1` })
          .from(userRoles)
          .innerJoin(users, eq(users.id, userRoles.userId))
          .where(and(eq(userRoles.roleId, roles.id), isNull(users.companyId), activeUser)),
      ),
    );
  return held.map(({ rules }) => rules);
}

/** Stores a system role for each of these kinds that has none yet, named after its kind. */
export async function insertMissingSystemRoles(
  db: DbOrTx,
  defaults: Array<{ kind: UserKind; description: string; rules: AbilityRule[] }>,
): Promise<void> {
  await db
    .insert(roles)
    .values(defaults.map((role) => ({ ...role, name: role.kind, isSystem: true })))
    .onConflictDoNothing();
}

/**
 * Gives the role of `kind` new rules if its rules still equal `earlier` (jsonb equality: the same rules in the same
 * order, whatever the key order the JSON was written in).
 */
export async function replaceRulesIfStill(
  db: DbOrTx,
  kind: UserKind,
  earlier: unknown[],
  rules: AbilityRule[],
): Promise<void> {
  await db
    .update(roles)
    .set({ rules, updatedAt: new Date() })
    .where(and(eq(roles.kind, kind), sql`${roles.rules} = ${JSON.stringify(earlier)}::jsonb`));
}
