import {
  type createRoleBodySchema,
  DEFAULT_ROLES,
  type Role,
  type updateRoleBodySchema,
} from '@werkwissen/shared';
import type { z } from 'zod';
import { assertPlatformCaller } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import {
  assertGrantsHeld,
  assertNotOwnRole,
  assertPlatformStillGoverned,
  assertReadableRules,
} from './role-guards.ts';
import {
  deleteRoleRow,
  insertRole,
  type RoleContent,
  type RoleRecord,
  type RoleSort,
  roleById,
  roleHolderList,
  roleList,
  roleNameTaken,
  updateRoleContent,
} from './roles.queries.ts';

const present = (r: RoleRecord): Role => ({ ...r, updatedAt: r.updatedAt.toISOString() });

/** What the activity log keeps of a role before and after a change. */
const logged = (role: Role) => ({ name: role.name, description: role.description, rules: role.rules });

export async function listRoles(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; sort?: string },
) {
  assertPlatformCaller(actor);
  const sort: RoleSort = query.sort?.replace(/^-/, '') === 'holderCount' ? 'holderCount' : 'name';
  const { items, total } = await roleList(ctx.db, actor.userId, {
    ...query,
    sort,
    descending: query.sort?.startsWith('-') ?? false,
  });
  return { items: items.map(present), total, page: query.page, pageSize: query.pageSize };
}

async function loadRole(db: DbOrTx, actor: Actor, roleId: string): Promise<Role> {
  const role = await roleById(db, actor.userId, roleId);
  if (!role) throw notFound();
  return present(role);
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
  const { items, total } = await roleHolderList(ctx.db, roleId, query);
  return { items, total, page: query.page, pageSize: query.pageSize };
}

async function assertNameFree(db: DbOrTx, name: string, except: string | null): Promise<void> {
  if (await roleNameTaken(db, name, except)) throw new AppError('ROLE_NAME_TAKEN', { field: 'name' });
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
    const id = await insertRole(tx, {
      name: input.name,
      description: input.description ?? '',
      rules: input.rules,
    });
    const role = await loadRole(tx, actor, id);
    return { role, change: { before: null, after: logged(role) } };
  });
}

/** Loads a role the caller may change: not one they hold. */
async function changeable(tx: DbOrTx, actor: Actor, roleId: string): Promise<Role> {
  const role = await loadRole(tx, actor, roleId);
  await assertNotOwnRole(tx, actor, [roleId]);
  return role;
}

async function writeRole(tx: DbOrTx, actor: Actor, before: Role, set: RoleContent): Promise<RoleChange> {
  await updateRoleContent(tx, before.id, set);
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
    await deleteRoleRow(tx, roleId);
    return { change: { before: logged(before), after: null } };
  });
}
