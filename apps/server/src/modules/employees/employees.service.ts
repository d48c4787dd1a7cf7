import type {
  Action,
  createEmployeeBodySchema,
  Employee,
  Language,
  updateEmployeeBodySchema,
} from '@werkwissen/shared';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { divisionAccess } from '../../access/division.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import { userAccess } from '../../access/user.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { refusePhoneChange } from '../../core/impersonation-guard.ts';
import { storedPhone } from '../../core/person-phone.ts';
import { issueUserToken } from '../../core/user-tokens.ts';
import { emailTaken } from '../../core/users.queries.ts';
import type { DbOrTx } from '../../db/database.ts';
import { companies, divisions, employeeDivisions, roles, userRoles, users } from '../../db/schema/index.ts';
import { takeLimitSlot } from '../billing/limit-slot.ts';
import { singleUseLink } from '../mail/hidden-link.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { assertVerifiedSender } from '../mail/verified-sender.ts';
import { type EmployeeRow, employeeById, employeeList } from './employees.queries.ts';

const present = (r: EmployeeRow): Employee => ({
  id: r.id,
  email: r.email,
  firstName: r.firstName,
  lastName: r.lastName,
  phone: r.phone,
  language: r.language,
  status: r.passwordHash ? 'active' : 'invited',
  divisions: r.divisions,
  createdAt: r.createdAt.toISOString(),
});

const employeesOf = (companyId: string) => and(eq(users.companyId, companyId), eq(users.kind, 'Employee'));
/** The employees the actor may `action`, by their User rules (these routes are about employees only). */
const employeesFor = (actor: Actor, action: Action) =>
  and(eq(users.kind, 'Employee'), userAccess.where(actor, action));

/** The employees the actor may read (by default their company's, in SQL), searchable, sortable and paged. */
export async function listEmployees(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; sort?: string },
) {
  const { items, total } = await employeeList(ctx.db, employeesFor(actor, 'read'), query);
  return { items: items.map(present), total, page: query.page, pageSize: query.pageSize };
}

export async function getEmployee(ctx: AppContext, actor: Actor, employeeId: string): Promise<Employee> {
  return loadEmployee(ctx.db, employeeId, employeesFor(actor, 'read'));
}

async function loadEmployee(db: DbOrTx, employeeId: string, among: SQL | undefined): Promise<Employee> {
  const row = await employeeById(db, employeeId, among);
  if (!row) throw notFound();
  return present(row);
}

/** Replaces an employee's divisions; a division of another company, or one the actor may not read, is not found. */
async function assignDivisions(
  tx: DbOrTx,
  actor: Actor,
  employee: { id: string; companyId: string },
  divisionIds: string[],
) {
  const userId = employee.id;
  const unique = [...new Set(divisionIds)];
  if (unique.length > 0) {
    const found = await tx
      .select({ id: divisions.id })
      .from(divisions)
      .where(
        and(
          eq(divisions.companyId, employee.companyId),
          inArray(divisions.id, unique),
          divisionAccess.where(actor, 'read'),
        ),
      );
    if (found.length !== unique.length) throw new AppError('NOT_FOUND', { field: 'divisionIds' });
  }
  await tx.delete(employeeDivisions).where(eq(employeeDivisions.userId, userId));
  if (unique.length > 0) {
    await tx.insert(employeeDivisions).values(unique.map((divisionId) => ({ userId, divisionId })));
  }
}

/** Who an invitation comes from: the company's name (may be unset) and the inviting data manager's name. */
async function invitationSender(tx: DbOrTx, companyId: string, inviterId: string) {
  const [company] = await tx
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, companyId));
  const [inviter] = await tx
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, inviterId));
  return {
    company: company?.name?.trim() ?? '',
    inviter: [inviter?.firstName, inviter?.lastName].filter(Boolean).join(' ').trim(),
  };
}

/** Writes an employee's invitation (a new set-password link) to the outbox, counted against the company's budget. */
export async function writeInvitation(
  tx: DbOrTx,
  ctx: AppContext,
  employee: { id: string; email: string; firstName: string; language: Language; companyId: string },
  inviterId: string,
) {
  const token = await issueUserToken(tx, employee.id, 'set_password');
  return writeToOutbox(tx, ctx, {
    to: employee.email,
    template: 'setPassword',
    language: employee.language,
    name: employee.firstName,
    ...singleUseLink('/setPassword', token),
    values: await invitationSender(tx, employee.companyId, inviterId),
    userId: employee.id,
    companyId: employee.companyId,
    budgeted: true,
  });
}

/**
 * Adds an employee within the plan's employees limit (its slot taken in the insert's transaction) and mails the
 * invitation (a set-password link, 7 days). While the data manager's own address is not confirmed, invitations wait
 * and go out when it is (`waiting-invitations.job.ts`).
 */
export async function createEmployee(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof createEmployeeBodySchema>,
): Promise<Employee> {
  input = { ...input, phone: storedPhone(input.phone, actor.language) };
  const companyId = homeCompany(actor);
  userAccess.assertCan(actor, 'create', { companyId, kind: 'Employee' });
  const { employee, emailId } = await ctx.db.transaction(async (tx) => {
    await takeLimitSlot(ctx, tx, { companyId, limit: 'employees', language: actor.language });
    if (await emailTaken(tx, input.email)) throw new AppError('EMAIL_TAKEN', { field: 'email' });
    const [user] = await tx
      .insert(users)
      .values({
        companyId,
        kind: 'Employee',
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        phone: input.phone ?? null,
        language: input.language,
      })
      .returning();
    const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.kind, 'Employee'));
    await tx.insert(userRoles).values({ userId: user!.id, roleId: role!.id });
    await assignDivisions(tx, actor, { id: user!.id, companyId }, input.divisionIds);
    const [manager] = await tx
      .select({ verified: users.emailVerifiedAt })
      .from(users)
      .where(eq(users.id, actor.userId));
    const emailId = manager?.verified
      ? await writeInvitation(tx, ctx, { ...user!, companyId }, actor.userId)
      : null;
    return { employee: await loadEmployee(tx, user!.id, employeesOf(companyId)), emailId };
  });
  if (emailId) await dispatch(ctx, [emailId]);
  return employee;
}

export async function updateEmployee(
  ctx: AppContext,
  actor: Actor,
  employeeId: string,
  input: z.output<typeof updateEmployeeBodySchema>,
): Promise<Employee> {
  await userAccess.authorize(ctx.db, actor, 'update', employeeId);
  input = { ...input, phone: storedPhone(input.phone, actor.language) };
  // An employee's phone is their WhatsApp identity: not changed while an operator views as their data manager.
  if (input.phone !== undefined) await refusePhoneChange(ctx, actor, employeeId, input.phone);
  return ctx.db.transaction(async (tx) => {
    const { divisionIds, ...fields } = input;
    const [row] = await tx
      .update(users)
      .set({ ...fields, updatedAt: new Date() })
      .where(and(employeesFor(actor, 'update'), eq(users.id, employeeId)))
      .returning({ id: users.id, companyId: users.companyId });
    if (!row?.companyId) throw notFound();
    if (divisionIds) await assignDivisions(tx, actor, { id: row.id, companyId: row.companyId }, divisionIds);
    return loadEmployee(tx, employeeId, employeesOf(row.companyId));
  });
}

export async function deleteEmployee(ctx: AppContext, actor: Actor, employeeId: string): Promise<void> {
  await userAccess.authorize(ctx.db, actor, 'delete', employeeId);
  const [row] = await ctx.db
    .delete(users)
    .where(and(employeesFor(actor, 'delete'), eq(users.id, employeeId)))
    .returning({ id: users.id });
  if (!row) throw notFound();
}

/**
 * A new invitation for an employee who has not set a password yet (the earlier link stops working); like the first
 * one, only once the data manager's own address is confirmed.
 */
export async function resendInvitation(ctx: AppContext, actor: Actor, employeeId: string): Promise<void> {
  await userAccess.authorize(ctx.db, actor, 'update', employeeId);
  await assertVerifiedSender(ctx.db, actor);
  const emailId = await ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .select()
      .from(users)
      .where(and(employeesFor(actor, 'update'), eq(users.id, employeeId)));
    if (!user?.companyId) throw notFound();
    if (user.passwordHash) throw new AppError('ALREADY_ACTIVE');
    return writeInvitation(tx, ctx, { ...user, companyId: user.companyId }, actor.userId);
  });
  await dispatch(ctx, [emailId]);
}
