import {
  type AbilityRule,
  type Action,
  COMPANY_ROLE_KINDS,
  type inviteStaffBodySchema,
  type StaffMember,
  type UserKind,
  type updateStaffBodySchema,
} from '@werkwissen/shared';
import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { assertPlatformCaller } from '../../access/resource-access.ts';
import { userAccess } from '../../access/user.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { issueUserToken } from '../../core/user-tokens.ts';
import { emailTaken } from '../../core/users.queries.ts';
import type { DbOrTx } from '../../db/database.ts';
import { revokeSessions } from '../auth/session.service.ts';
import { singleUseLink } from '../mail/hidden-link.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { assertGrantsHeld, assertPlatformStillGoverned } from './role-guards.ts';
import {
  deleteUser,
  disableUser,
  enableUser,
  insertPlatformUser,
  platformUsers,
  replaceUserRoles,
  rolesByIds,
  type StaffRecord,
  type StaffSort,
  type StaffStatus,
  staffList,
  staffMemberById,
  updateStaffFields,
  userNames,
} from './staff.queries.ts';

const present = (r: StaffRecord): StaffMember => ({
  ...r,
  lastSignInAt: r.lastSignInAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

/** What the activity log keeps of a staff member before and after a change. */
const logged = (m: StaffMember) => ({
  email: m.email,
  firstName: m.firstName,
  lastName: m.lastName,
  language: m.language,
  status: m.status,
  roles: m.roles.map((r) => r.name),
});

/**
 * The operator's users (of no company) the actor's User rules let them `action`. Only the operator reaches them: every
 * function below refuses a company user first (`assertPlatformCaller`), whatever their User rules say.
 */
const staffFor = (actor: Actor, action: Action) => platformUsers(userAccess.where(actor, action));

const SORTS: readonly StaffSort[] = ['lastName', 'email', 'lastSignInAt', 'createdAt'];

export async function listStaff(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; sort?: string; status?: StaffStatus },
) {
  assertPlatformCaller(actor);
  const key = query.sort?.replace(/^-/, '') ?? 'lastName';
  const sort = SORTS.find((s) => s === key) ?? 'lastName';
  const { items, total } = await staffList(ctx.db, staffFor(actor, 'read'), {
    ...query,
    sort,
    descending: query.sort?.startsWith('-') ?? false,
  });
  return { items: items.map(present), total, page: query.page, pageSize: query.pageSize };
}

async function loadStaff(db: DbOrTx, among: SQL | undefined, staffId: string): Promise<StaffMember> {
  const member = await staffMemberById(db, staffId, among);
  if (!member) throw notFound();
  return present(member);
}

export async function getStaffMember(ctx: AppContext, actor: Actor, staffId: string): Promise<StaffMember> {
  assertPlatformCaller(actor);
  return loadStaff(ctx.db, staffFor(actor, 'read'), staffId);
}

/**
 * The roles a staff member may be given (the operator's: Administrator, Staff and custom roles; never a company
 * role), and the kind that follows from them.
 */
async function assignable(tx: DbOrTx, roleIds: string[]) {
  const unique = [...new Set(roleIds)];
  const rows = await rolesByIds(tx, unique);
  if (rows.length !== unique.length) throw new AppError('NOT_FOUND', { field: 'roleIds' });
  if (rows.some((r) => r.kind && COMPANY_ROLE_KINDS.includes(r.kind))) {
    throw new AppError('ROLE_NOT_ASSIGNABLE', { field: 'roleIds' });
  }
  const kind: UserKind = rows.some((r) => r.kind === 'Administrator') ? 'Administrator' : 'Staff';
  return { kind, roles: rows };
}

/** Giving a role grants its rights: nobody gives a role granting more than they hold (roles kept are not new). */
function assertMayGive(actor: Actor, roles: Array<{ id: string; rules: AbilityRule[] }>, kept: string[]) {
  assertGrantsHeld(
    actor,
    [],
    roles.filter((r) => !kept.includes(r.id)).flatMap((r) => r.rules),
  );
}

async function writeInvitation(ctx: AppContext, tx: DbOrTx, actor: Actor, member: StaffMember) {
  const token = await issueUserToken(tx, member.id, 'set_password');
  const names = await userNames(tx, actor.userId);
  const inviter = [names?.firstName, names?.lastName].filter(Boolean).join(' ').trim();
  return writeToOutbox(tx, ctx, {
    to: member.email,
    template: 'setPassword',
    language: member.language,
    name: member.firstName,
    ...singleUseLink('/setPassword', token),
    values: { company: '', inviter },
    userId: member.id,
    companyId: null,
  });
}

export interface StaffChange {
  member: StaffMember;
  change: { before: unknown; after: unknown };
}

/** Adds a staff member with their roles and mails the invitation (a set-password link, 7 days). */
export async function inviteStaffMember(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof inviteStaffBodySchema>,
): Promise<StaffChange> {
  assertPlatformCaller(actor);
  const { member, emailId } = await ctx.db.transaction(async (tx) => {
    const { kind, roles } = await assignable(tx, input.roleIds);
    userAccess.assertCan(actor, 'create', { companyId: null, kind });
    assertMayGive(actor, roles, []);
    if (await emailTaken(tx, input.email)) throw new AppError('EMAIL_TAKEN', { field: 'email' });
    const id = await insertPlatformUser(tx, {
      kind,
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      language: input.language,
    });
    await replaceUserRoles(tx, id, input.roleIds);
    const member = await loadStaff(tx, undefined, id);
    return { member, emailId: await writeInvitation(ctx, tx, actor, member) };
  });
  await dispatch(ctx, [emailId]);
  return { member, change: { before: null, after: logged(member) } };
}

/** Runs a change of one staff member the actor may `update`, then checks the platform still has its governors. */
async function changeMember(
  ctx: AppContext,
  actor: Actor,
  staffId: string,
  action: Action,
  change: (tx: DbOrTx, before: StaffMember) => Promise<void>,
): Promise<StaffChange> {
  assertPlatformCaller(actor);
  await userAccess.authorize(ctx.db, actor, action, staffId);
  return ctx.db.transaction(async (tx) => {
    const before = await loadStaff(tx, staffFor(actor, action), staffId);
    await change(tx, before);
    await assertPlatformStillGoverned(tx);
    const member = await loadStaff(tx, undefined, staffId);
    return { member, change: { before: logged(before), after: logged(member) } };
  });
}

export async function updateStaffMember(
  ctx: AppContext,
  actor: Actor,
  staffId: string,
  input: z.output<typeof updateStaffBodySchema>,
): Promise<StaffChange> {
  return changeMember(ctx, actor, staffId, 'update', async (tx, before) => {
    const { roleIds, ...fields } = input;
    let kind: UserKind | undefined;
    const current = before.roles.map((r) => r.id);
    const rolesChanged =
      roleIds !== undefined &&
      (new Set(roleIds).size !== current.length || roleIds.some((id) => !current.includes(id)));
    if (roleIds && rolesChanged) {
      if (staffId === actor.userId) throw new AppError('ROLE_OWN');
      const assigned = await assignable(tx, roleIds);
      assertMayGive(actor, assigned.roles, current);
      kind = assigned.kind;
      await replaceUserRoles(tx, staffId, roleIds);
    }
    await updateStaffFields(tx, staffId, {
      firstName: fields.firstName,
      lastName: fields.lastName,
      language: fields.language,
      kind,
    });
  });
}

export async function deactivateStaffMember(ctx: AppContext, actor: Actor, staffId: string) {
  assertPlatformCaller(actor);
  if (staffId === actor.userId) throw new AppError('STAFF_SELF');
  return changeMember(ctx, actor, staffId, 'update', async (tx) => {
    await disableUser(tx, staffId);
    await revokeSessions(tx, { userId: staffId }, 'deactivated');
  });
}

export async function reactivateStaffMember(ctx: AppContext, actor: Actor, staffId: string) {
  return changeMember(ctx, actor, staffId, 'update', async (tx) => {
    await enableUser(tx, staffId);
  });
}

export async function deleteStaffMember(ctx: AppContext, actor: Actor, staffId: string) {
  assertPlatformCaller(actor);
  if (staffId === actor.userId) throw new AppError('STAFF_SELF');
  await userAccess.authorize(ctx.db, actor, 'delete', staffId);
  return ctx.db.transaction(async (tx) => {
    const before = await loadStaff(tx, staffFor(actor, 'delete'), staffId);
    await deleteUser(tx, staffId);
    await assertPlatformStillGoverned(tx);
    return { change: { before: logged(before), after: null } };
  });
}

/** A new invitation for a staff member who has not set a password yet (the earlier link stops working). */
export async function resendStaffInvitation(ctx: AppContext, actor: Actor, staffId: string): Promise<void> {
  assertPlatformCaller(actor);
  await userAccess.authorize(ctx.db, actor, 'update', staffId);
  const emailId = await ctx.db.transaction(async (tx) => {
    const member = await loadStaff(tx, staffFor(actor, 'update'), staffId);
    if (member.status !== 'invited') throw new AppError('ALREADY_ACTIVE');
    return writeInvitation(ctx, tx, actor, member);
  });
  await dispatch(ctx, [emailId]);
}
