import {
  type AbilityRule,
  type Action,
  COMPANY_ROLE_KINDS,
  type inviteStaffBodySchema,
  type Language,
  type StaffMember,
  type UserKind,
  type updateStaffBodySchema,
} from '@werkwissen/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { assertPlatformCaller } from '../../access/resource-access.ts';
import { userAccess } from '../../access/user.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { issueUserToken } from '../../core/user-tokens.ts';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import { revokeSessions } from '../auth/session.service.ts';
import { singleUseLink } from '../mail/hidden-link.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { assertGrantsHeld, assertPlatformStillGoverned } from './role-guards.ts';

interface StaffRow extends Record<string, unknown> {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  kind: UserKind;
  language: Language;
  has_password: boolean;
  disabled: boolean;
  roles: Array<{ id: string; name: string; kind: UserKind | null }> | null;
  last_sign_in_at: Date | string | null;
  created_at: Date | string;
}

const present = (r: StaffRow): StaffMember => ({
  id: r.id,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  kind: r.kind,
  language: r.language,
  status: r.disabled ? 'deactivated' : r.has_password ? 'active' : 'invited',
  roles: r.roles ?? [],
  lastSignInAt: r.last_sign_in_at ? new Date(r.last_sign_in_at).toISOString() : null,
  createdAt: new Date(r.created_at).toISOString(),
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
const staffFor = (actor: Actor, action: Action) =>
  sql`users.kind in ('Administrator', 'Staff') and users.company_id is null and ${userAccess.where(actor, action)}`;

const columns = sql`users.id, users.email, users.first_name, users.last_name, users.kind, users.language,
  users.password_hash is not null as has_password, users.disabled_at is not null as disabled, users.created_at,
  (select json_agg(json_build_object('id', r.id, 'name', r.name, 'kind', r.kind) order by r.name)
     from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = users.id) as roles,
  (select max(s.created_at) from auth_sessions s where s.user_id = users.id) as last_sign_in_at`;

const SORTS = {
  lastName: sql`lower(users.last_name)`,
  email: sql`lower(users.email)`,
  lastSignInAt: sql`last_sign_in_at`,
  createdAt: sql`users.created_at`,
} as const;

const STATUS = {
  invited: sql`users.password_hash is null and users.disabled_at is null`,
  active: sql`users.password_hash is not null and users.disabled_at is null`,
  deactivated: sql`users.disabled_at is not null`,
} as const;

export async function listStaff(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; sort?: string; status?: keyof typeof STATUS },
) {
  assertPlatformCaller(actor);
  const like = query.q ? containsPattern(query.q) : null;
  const parts: SQL[] = [staffFor(actor, 'read')];
  if (like) {
    parts.push(
      sql`(users.email ilike ${like} or users.first_name ilike ${like} or users.last_name ilike ${like})`,
    );
  }
  if (query.status) parts.push(STATUS[query.status]);
  const where = sql.join(parts, sql` and `);
  const key = (query.sort?.replace(/^-/, '') ?? 'lastName') as keyof typeof SORTS;
  const direction = query.sort?.startsWith('-') ? sql`desc nulls last` : sql`asc nulls last`;
  const [{ rows }, { rows: total }] = await Promise.all([
    ctx.db.execute<StaffRow>(sql`select ${columns} from users where ${where}
      order by ${SORTS[key]} ${direction}, users.id
      limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
    ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from users where ${where}`),
  ]);
  return {
    items: rows.map(present),
    total: Number(total[0]?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}

async function loadStaff(db: DbOrTx, among: SQL, staffId: string): Promise<StaffMember> {
  const { rows } = await db.execute<StaffRow>(sql`select ${columns} from users
    where ${among} and users.id = ${staffId}`);
  if (!rows[0]) throw notFound();
  return present(rows[0]);
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
  const { rows } = await tx.execute<{ id: string; kind: UserKind | null; rules: AbilityRule[] }>(
    sql`select id, kind, rules from roles where id in (${sql.join(
      unique.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
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

async function setRoles(tx: DbOrTx, userId: string, roleIds: string[]) {
  await tx.execute(sql`delete from user_roles where user_id = ${userId}`);
  for (const roleId of new Set(roleIds)) {
    await tx.execute(sql`insert into user_roles (user_id, role_id) values (${userId}, ${roleId})`);
  }
}

async function writeInvitation(ctx: AppContext, tx: DbOrTx, actor: Actor, member: StaffMember) {
  const token = await issueUserToken(tx, member.id, 'set_password');
  const { rows } = await tx.execute<{ first_name: string; last_name: string }>(
    sql`select first_name, last_name from users where id = ${actor.userId}`,
  );
  const inviter = [rows[0]?.first_name, rows[0]?.last_name].filter(Boolean).join(' ').trim();
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
    const { rows: taken } = await tx.execute(sql`select 1 from users where lower(email) = ${input.email}`);
    if (taken.length > 0) throw new AppError('EMAIL_TAKEN', { field: 'email' });
    const { rows } = await tx.execute<{ id: string }>(sql`insert into users
        (kind, company_id, email, first_name, last_name, language)
      values (${kind}, null, ${input.email}, ${input.firstName}, ${input.lastName}, ${input.language})
      returning id`);
    await setRoles(tx, rows[0]!.id, input.roleIds);
    const member = await loadStaff(tx, sql`true`, rows[0]!.id);
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
    const member = await loadStaff(tx, sql`true`, staffId);
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
    const set: SQL[] = [sql`updated_at = now()`];
    if (fields.firstName !== undefined) set.push(sql`first_name = ${fields.firstName}`);
    if (fields.lastName !== undefined) set.push(sql`last_name = ${fields.lastName}`);
    if (fields.language !== undefined) set.push(sql`language = ${fields.language}`);
    const current = before.roles.map((r) => r.id);
    const rolesChanged =
      roleIds !== undefined &&
      (new Set(roleIds).size !== current.length || roleIds.some((id) => !current.includes(id)));
    if (roleIds && rolesChanged) {
      if (staffId === actor.userId) throw new AppError('ROLE_OWN');
      const { kind, roles } = await assignable(tx, roleIds);
      assertMayGive(actor, roles, current);
      set.push(sql`kind = ${kind}`);
      await setRoles(tx, staffId, roleIds);
    }
    await tx.execute(sql`update users set ${sql.join(set, sql`, `)} where id = ${staffId}`);
  });
}

export async function deactivateStaffMember(ctx: AppContext, actor: Actor, staffId: string) {
  assertPlatformCaller(actor);
  if (staffId === actor.userId) throw new AppError('STAFF_SELF');
  return changeMember(ctx, actor, staffId, 'update', async (tx) => {
    await tx.execute(sql`update users set disabled_at = coalesce(disabled_at, now()), updated_at = now()
      where id = ${staffId}`);
    await revokeSessions(tx, { userId: staffId }, 'deactivated');
  });
}

export async function reactivateStaffMember(ctx: AppContext, actor: Actor, staffId: string) {
  return changeMember(ctx, actor, staffId, 'update', async (tx) => {
    await tx.execute(sql`update users set disabled_at = null, updated_at = now() where id = ${staffId}`);
  });
}

export async function deleteStaffMember(ctx: AppContext, actor: Actor, staffId: string) {
  assertPlatformCaller(actor);
  if (staffId === actor.userId) throw new AppError('STAFF_SELF');
  await userAccess.authorize(ctx.db, actor, 'delete', staffId);
  return ctx.db.transaction(async (tx) => {
    const before = await loadStaff(tx, staffFor(actor, 'delete'), staffId);
    await tx.execute(sql`delete from users where id = ${staffId}`);
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
