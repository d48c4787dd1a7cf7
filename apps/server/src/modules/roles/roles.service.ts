import {
  type AbilityRule,
  type createRoleBodySchema,
  DEFAULT_ROLES,
  type Role,
  type RoleHolder,
  type UserKind,
  type updateRoleBodySchema,
} from '@werkwissen/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { assertPlatformCaller } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import {
  assertGrantsHeld,
  assertNotOwnRole,
  assertPlatformStillGoverned,
  assertReadableRules,
} from './role-guards.ts';

interface RoleRow extends Record<string, unknown> {
  id: string;
  name: string;
  kind: UserKind | null;
  description: string;
  rules: AbilityRule[];
  is_system: boolean;
  holder_count: number;
  held_by_caller: boolean;
  updated_at: Date | string;
}

const present = (r: RoleRow): Role => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  description: r.description,
  rules: r.rules,
  isSystem: r.is_system,
  holderCount: Number(r.holder_count),
  heldByCaller: r.held_by_caller,
  updatedAt: new Date(r.updated_at).toISOString(),
});

/** What the activity log keeps of a role before and after a change. */
const logged = (role: Role) => ({ name: role.name, description: role.description, rules: role.rules });

const selectRoles = (actor: Actor, where: SQL) => sql`select r.id, r.name, r.kind, r.description, r.rules,
    r.is_system, r.updated_at,
    (select count(*) from user_roles ur where ur.role_id = r.id)::int as holder_count,
    exists (select 1 from user_roles ur where ur.role_id = r.id and ur.user_id = ${actor.userId}) as held_by_caller
  from roles r where ${where}`;

const SORTS = {
  name: sql`lower(r.name)`,
  holderCount: sql`holder_count`,
} as const;

export async function listRoles(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; sort?: string },
) {
  assertPlatformCaller(actor);
  const where = query.q ? sql`r.name ilike ${containsPattern(query.q)}` : sql`true`;
  const key = (query.sort?.replace(/^-/, '') ?? 'name') as keyof typeof SORTS;
  const direction = query.sort?.startsWith('-') ? sql`desc` : sql`asc`;
  const [{ rows }, { rows: total }] = await Promise.all([
    ctx.db.execute<RoleRow>(sql`${selectRoles(actor, where)}
      order by ${SORTS[key]} ${direction}, r.id
      limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
    ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from roles r where ${where}`),
  ]);
  return {
    items: rows.map(present),
    total: Number(total[0]?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}

async function loadRole(db: DbOrTx, actor: Actor, roleId: string): Promise<Role> {
  const { rows } = await db.execute<RoleRow>(selectRoles(actor, sql`r.id = ${roleId}`));
  if (!rows[0]) throw notFound();
  return present(rows[0]);
}

export async function getRole(ctx: AppContext, actor: Actor, roleId: string): Promise<Role> {
  assertPlatformCaller(actor);
  return loadRole(ctx.db, actor, roleId);
}

export async function listRoleHolders(
  ctx: AppContext,
  actor: Actor,
  roleId: string,
  query: { page: number; pageSize: number; q?: string },
) {
  await getRole(ctx, actor, roleId);
  const like = query.q ? containsPattern(query.q) : null;
  const where = sql`ur.role_id = ${roleId} ${
    like ? sql`and (u.email ilike ${like} or u.first_name ilike ${like} or u.last_name ilike ${like})` : sql``
  }`;
  const from = sql`from user_roles ur join users u on u.id = ur.user_id left join companies c on c.id = u.company_id`;
  const [{ rows }, { rows: total }] = await Promise.all([
    ctx.db.execute<{
      id: string;
      email: string;
      first_name: string;
      last_name: string;
      kind: UserKind;
      company_name: string | null;
      active: boolean;
    }>(sql`select u.id, u.email, u.first_name, u.last_name, u.kind, c.name as company_name,
        u.disabled_at is null as active
      ${from} where ${where} order by lower(u.last_name), lower(u.first_name), u.id
      limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
    ctx.db.execute<{ n: number }>(sql`select count(*)::int as n ${from} where ${where}`),
  ]);
  const items: RoleHolder[] = rows.map((r) => ({
    id: r.id,
    email: r.email,
    firstName: r.first_name,
    lastName: r.last_name,
    kind: r.kind,
    companyName: r.company_name,
    active: r.active,
  }));
  return { items, total: Number(total[0]?.n ?? 0), page: query.page, pageSize: query.pageSize };
}

async function assertNameFree(db: DbOrTx, name: string, except: string | null): Promise<void> {
  const { rows } = await db.execute(sql`select 1 from roles
    where lower(name) = lower(${name}) ${except ? sql`and id <> ${except}` : sql``}`);
  if (rows.length > 0) throw new AppError('ROLE_NAME_TAKEN', { field: 'name' });
}

export interface RoleChange {
  role: Role;
  change: { before: unknown; after: unknown };
}

/** A custom role for staff members; it grants nothing the caller does not hold. */
export async function createRole(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof createRoleBodySchema>,
): Promise<RoleChange> {
  assertPlatformCaller(actor);
  assertReadableRules(input.rules);
  assertGrantsHeld(actor, [], input.rules);
  return ctx.db.transaction(async (tx) => {
    await assertNameFree(tx, input.name, null);
    const { rows } = await tx.execute<{ id: string }>(sql`insert into roles (name, description, rules)
      values (${input.name}, ${input.description ?? ''}, ${JSON.stringify(input.rules)}::jsonb) returning id`);
    const role = await loadRole(tx, actor, rows[0]!.id);
    return { role, change: { before: null, after: logged(role) } };
  });
}

/** Loads a role the caller may change: not one they hold. */
async function changeable(tx: DbOrTx, actor: Actor, roleId: string): Promise<Role> {
  const role = await loadRole(tx, actor, roleId);
  await assertNotOwnRole(tx, actor, [roleId]);
  return role;
}

async function writeRole(
  tx: DbOrTx,
  actor: Actor,
  before: Role,
  set: { name: string; description: string; rules: AbilityRule[] },
): Promise<RoleChange> {
  await tx.execute(sql`update roles set name = ${set.name}, description = ${set.description},
    rules = ${JSON.stringify(set.rules)}::jsonb, updated_at = now() where id = ${before.id}`);
  await assertPlatformStillGoverned(tx);
  const role = await loadRole(tx, actor, before.id);
  return { role, change: { before: logged(before), after: logged(role) } };
}

/** Renames a custom role or changes a role's rules (its holders' next request follows them: role versions). */
export async function updateRole(
  ctx: AppContext,
  actor: Actor,
  roleId: string,
  input: z.output<typeof updateRoleBodySchema>,
): Promise<RoleChange> {
  assertPlatformCaller(actor);
  if (input.rules) assertReadableRules(input.rules);
  return ctx.db.transaction(async (tx) => {
    const before = await changeable(tx, actor, roleId);
    const name = input.name ?? before.name;
    if (name !== before.name) {
      if (before.isSystem) throw new AppError('ROLE_SYSTEM', { field: 'name' });
      await assertNameFree(tx, name, roleId);
    }
    const rules = input.rules ?? before.rules;
    assertGrantsHeld(actor, before.rules, rules);
    return writeRole(tx, actor, before, {
      name,
      description: input.description ?? before.description,
      rules,
    });
  });
}

/**
 * Gives a system role the product's default rules and description back. The defaults are the product's, not the
 * caller's choice, so they are not held against the caller's own rights; the caller's own role stays out of reach.
 */
export async function resetRole(ctx: AppContext, actor: Actor, roleId: string): Promise<RoleChange> {
  assertPlatformCaller(actor);
  return ctx.db.transaction(async (tx) => {
    const before = await changeable(tx, actor, roleId);
    if (!before.kind) throw new AppError('ROLE_NO_DEFAULTS');
    const defaults = DEFAULT_ROLES[before.kind];
    return writeRole(tx, actor, before, {
      name: before.name,
      description: defaults.description,
      rules: defaults.rules,
    });
  });
}

/** Deletes a custom role nobody holds. */
export async function deleteRole(
  ctx: AppContext,
  actor: Actor,
  roleId: string,
): Promise<{ change: { before: unknown; after: unknown } }> {
  assertPlatformCaller(actor);
  return ctx.db.transaction(async (tx) => {
    const before = await changeable(tx, actor, roleId);
    if (before.isSystem) throw new AppError('ROLE_SYSTEM');
    if (before.holderCount > 0) throw new AppError('ROLE_IN_USE', { holders: before.holderCount });
    await tx.execute(sql`delete from roles where id = ${roleId}`);
    return { change: { before: logged(before), after: null } };
  });
}
