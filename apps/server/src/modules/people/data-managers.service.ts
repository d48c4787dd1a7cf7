import type {
  Action,
  createDataManagerBodySchema,
  DataManager,
  DataManagerStatus,
  updateDataManagerBodySchema,
} from '@werkwissen/shared';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { z } from 'zod';
import { userAccess } from '../../access/user.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { storedPhone } from '../../core/person-phone.ts';
import { removeStored } from '../../core/remove-stored.ts';
import { issueUserToken } from '../../core/user-tokens.ts';
import { emailTaken } from '../../core/users.queries.ts';
import type { DbOrTx } from '../../db/database.ts';
import { companies, files, roles, subscriptions, userRoles, users } from '../../db/schema/index.ts';
import { revokeSessions } from '../auth/session.service.ts';
import { brandingKeys } from '../company/company-branding.service.ts';
import { singleUseLink } from '../mail/hidden-link.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import {
  type DataManagerRow,
  dataManagerById,
  dataManagerList,
  setDataManagerDisabled,
} from './data-managers.queries.ts';

const statusOf = (r: DataManagerRow): DataManagerStatus =>
  r.disabledAt ? 'deactivated' : r.passwordHash ? 'active' : 'invited';

export const presentDataManager = (r: DataManagerRow): DataManager => ({
  id: r.id,
  email: r.email,
  firstName: r.firstName,
  lastName: r.lastName,
  phone: r.phone,
  language: r.language,
  status: statusOf(r),
  companyId: r.companyId,
  companyName: r.companyName,
  companySuspended: r.suspendedAt !== null,
  plan: r.plan ?? null,
  storageBytes: r.storageBytes,
  lastSignInAt: r.lastSignInAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

/** The data managers the actor's User rules allow `action` on (every company's, for the operator). */
export const dataManagersFor = (actor: Actor, action: Action) =>
  and(eq(users.kind, 'DataManager'), isNotNull(users.companyId), userAccess.where(actor, action));

/** The data managers the actor may read, searchable by name, e-mail and company, sortable and paged. */
export async function listDataManagers(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; sort?: string; status?: DataManagerStatus },
) {
  const { items, total } = await dataManagerList(ctx.db, dataManagersFor(actor, 'read'), query);
  return { items: items.map(presentDataManager), total, page: query.page, pageSize: query.pageSize };
}

/** One data manager the actor may read (404 otherwise), as its stored row. */
export async function loadDataManager(db: DbOrTx, actor: Actor, id: string): Promise<DataManagerRow> {
  const row = await dataManagerById(db, dataManagersFor(actor, 'read'), id);
  if (!row) throw notFound();
  return row;
}

/** 404 unless the actor may read the data manager, 403 unless their User rules allow `action` on them. */
async function authorizeDataManager(ctx: AppContext, actor: Actor, action: Action, id: string) {
  await loadDataManager(ctx.db, actor, id);
  await userAccess.authorize(ctx.db, actor, action, id);
}

/** A new company is nobody's own: only a caller of no company (the operator) whose User rules allow it adds one. */
export function assertMayAddDataManagers(actor: Actor): void {
  if (actor.companyId) throw new AppError('FORBIDDEN');
  userAccess.assertCan(actor, 'create', { kind: 'DataManager' });
}

/**
 * Adds a company with its data manager and a trial of the plan settings' length, and mails the invitation (a
 * set-password link from the operator, like an employee's). An address in use is EMAIL_TAKEN.
 */
export async function createDataManager(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof createDataManagerBodySchema>,
): Promise<DataManager> {
  assertMayAddDataManagers(actor);
  input = { ...input, phone: storedPhone(input.phone, actor.language) };
  const settings = await ctx.settings.current();
  const { id, emailId } = await ctx.db.transaction(async (tx) => {
    if (await emailTaken(tx, input.email)) throw new AppError('EMAIL_TAKEN', { field: 'email' });
    const [company] = await tx.insert(companies).values({ name: input.companyName }).returning();
    const now = new Date();
    await tx.insert(subscriptions).values({
      companyId: company!.id,
      plan: 'trial',
      status: 'trial',
      startsAt: now,
      endsAt: new Date(now.getTime() + settings.plans.trialDays * 86_400_000),
    });
    const [user] = await tx
      .insert(users)
      .values({
        companyId: company!.id,
        kind: 'DataManager',
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        phone: input.phone ?? null,
        language: input.language,
      })
      .returning();
    const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.kind, 'DataManager'));
    if (!role) throw new Error('the DataManager role is missing: roles were not seeded');
    await tx.insert(userRoles).values({ userId: user!.id, roleId: role.id });
    const [inviter] = await tx
      .select({ firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.id, actor.userId));
    const token = await issueUserToken(tx, user!.id, 'set_password');
    const mailId = await writeToOutbox(tx, ctx, {
      to: user!.email,
      template: 'setPassword',
      language: user!.language,
      name: user!.firstName,
      ...singleUseLink('/setPassword', token),
      values: {
        company: input.companyName,
        inviter:
          [inviter?.firstName, inviter?.lastName].filter(Boolean).join(' ').trim() ||
          settings.general.appTitle,
      },
      userId: user!.id,
      companyId: company!.id,
    });
    return { id: user!.id, emailId: mailId };
  });
  await dispatch(ctx, [emailId]);
  return presentDataManager(await loadDataManager(ctx.db, actor, id));
}

/** Changes a data manager's details and their company's name. */
export async function updateDataManager(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: z.output<typeof updateDataManagerBodySchema>,
): Promise<DataManager> {
  await authorizeDataManager(ctx, actor, 'update', id);
  const { companyName, ...fields } = { ...input, phone: storedPhone(input.phone, actor.language) };
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ ...fields, updatedAt: new Date() })
      .where(and(dataManagersFor(actor, 'update'), eq(users.id, id)))
      .returning({ companyId: users.companyId });
    if (!row?.companyId) throw notFound();
    if (companyName !== undefined) {
      await tx
        .update(companies)
        .set({ name: companyName, updatedAt: new Date() })
        .where(eq(companies.id, row.companyId));
    }
  });
  return presentDataManager(await loadDataManager(ctx.db, actor, id));
}

/**
 * Deactivates (no sign-in: ACCOUNT_DEACTIVATED; every session ends; API keys stop, see `actor.ts`) or reactivates
 * a data manager.
 */
export async function setDataManagerActive(
  ctx: AppContext,
  actor: Actor,
  id: string,
  active: boolean,
): Promise<DataManager> {
  await authorizeDataManager(ctx, actor, 'update', id);
  await ctx.db.transaction(async (tx) => {
    await setDataManagerDisabled(tx, id, dataManagersFor(actor, 'update'), !active);
    if (!active) await revokeSessions(tx, { userId: id }, 'deactivated');
  });
  return presentDataManager(await loadDataManager(ctx.db, actor, id));
}

/**
 * Deletes a data manager with their company and everything it holds: the foreign keys cascade from the company to
 * its users, divisions, files, passages, chats and keys in one transaction; the stored originals are removed once it
 * has committed. `confirmation` must be the company's name or the data manager's e-mail (CONFIRMATION_MISMATCH).
 */
export async function deleteDataManager(
  ctx: AppContext,
  actor: Actor,
  id: string,
  confirmation: string,
): Promise<void> {
  await authorizeDataManager(ctx, actor, 'delete', id);
  const manager = await loadDataManager(ctx.db, actor, id);
  const typed = confirmation.trim().toLowerCase();
  const names = [manager.email.toLowerCase(), manager.companyName?.trim().toLowerCase()].filter(Boolean);
  if (!names.includes(typed)) throw new AppError('CONFIRMATION_MISMATCH', { field: 'confirmation' });
  const companyId = manager.companyId;
  // Another data manager of the same company may not be reached by the caller's rules: the company goes only with all.
  const keys = await ctx.db.transaction(async (tx) => {
    const stored = await tx
      .select({ key: files.storageKey })
      .from(files)
      .where(eq(files.companyId, companyId));
    const [deleted] = await tx
      .delete(users)
      .where(and(dataManagersFor(actor, 'delete'), eq(users.id, id)))
      .returning({ id: users.id });
    if (!deleted) throw notFound();
    const branding = await brandingKeys(tx, companyId);
    await tx.delete(companies).where(eq(companies.id, companyId));
    return [...stored.map((s) => s.key), ...branding];
  });
  await removeStored(ctx, keys, 'stored file of a deleted company');
}
