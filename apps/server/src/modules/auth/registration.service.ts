import type { Language, registerBodySchema } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { userAccess } from '../../access/user.access.ts';
import type { AppContext } from '../../app-context.ts';
import { type Actor, loadUserActor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { storedPhone } from '../../core/person-phone.ts';
import { consumeUserToken, issueUserToken } from '../../core/user-tokens.ts';
import { emailTaken } from '../../core/users.queries.ts';
import type { DbOrTx } from '../../db/database.ts';
import { companies, roles, subscriptions, userRoles, users } from '../../db/schema/index.ts';
import { requireBotCheck } from '../bot-check/bot-check.ts';
import { sendWaitingInvitations } from '../employees/waiting-invitations.job.ts';
import { singleUseLink } from '../mail/hidden-link.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { areaPaths } from './areas.ts';
import { takeMailFormSlot } from './mail-form-limits.ts';
import { hashPassword } from './password-hashing.ts';

type RegisterInput = z.output<typeof registerBodySchema>;

/**
 * Self sign-up: a company, its data manager and a trial, in one transaction; then the verification mail. Sign-ups
 * are limited per client address and per recipient, like every form that sends mail.
 */
export async function register(
  ctx: AppContext,
  input: RegisterInput,
  ip: string,
): Promise<{ userId: string }> {
  await requireBotCheck(ctx, input.botCheck, ip);
  const settings = await ctx.settings.current();
  if (!settings.signUp.signupEnabled) throw new AppError('SIGNUP_DISABLED');
  await takeMailFormSlot(ctx, { ip, recipient: input.email });
  const passwordHash = await hashPassword(input.password);
  const result = await ctx.db.transaction(async (tx) => {
    if (await emailTaken(tx, input.email)) throw new AppError('EMAIL_TAKEN', { field: 'email' });
    const { companyId, userId } = await createCompanyWithDataManager(tx, settings.plans.trialDays, {
      companyName: input.companyName || null,
      email: input.email,
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      phone: storedPhone(input.phone, input.language),
      language: input.language,
      country: input.country,
      emailVerifiedAt: null,
    });
    const token = await issueUserToken(tx, userId, 'verify_email');
    const emailId = await writeToOutbox(tx, ctx, {
      to: input.email,
      template: 'verifyEmail',
      language: input.language,
      name: input.firstName,
      ...singleUseLink('/verify', token),
      userId,
      companyId,
    });
    return { userId, emailId };
  });
  await dispatch(ctx, [result.emailId]);
  return { userId: result.userId };
}

/**
 * A new company with its trial and its data manager (self sign-up, by form or through a sign-in provider). The
 * caller checked that sign-up is open and the address free.
 */
export async function createCompanyWithDataManager(
  tx: DbOrTx,
  trialDays: number,
  person: {
    companyName: string | null;
    email: string;
    passwordHash: string | null;
    firstName: string;
    lastName: string;
    phone: string | null;
    language: Language;
    country: string | null;
    emailVerifiedAt: Date | null;
  },
): Promise<{ companyId: string; userId: string }> {
  const { companyName, ...user } = person;
  const [company] = await tx.insert(companies).values({ name: companyName }).returning({ id: companies.id });
  const now = new Date();
  await tx.insert(subscriptions).values({
    companyId: company!.id,
    plan: 'trial',
    status: 'trial',
    startsAt: now,
    endsAt: new Date(now.getTime() + trialDays * 86_400_000),
  });
  const [created] = await tx
    .insert(users)
    .values({ companyId: company!.id, kind: 'DataManager', ...user })
    .returning({ id: users.id });
  const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.kind, 'DataManager'));
  if (!role) throw new Error('the DataManager role is missing: roles were not seeded');
  await tx.insert(userRoles).values({ userId: created!.id, roleId: role.id });
  return { companyId: company!.id, userId: created!.id };
}

/** Confirms the address of a verification token and sends the welcome mail and the invitations that waited. */
export async function verifyEmail(ctx: AppContext, token: string): Promise<void> {
  const outcome = await ctx.db.transaction(async (tx) => {
    const userId = await consumeUserToken(tx, token, 'verify_email');
    const [user] = await tx
      .update(users)
      .set({ emailVerifiedAt: new Date(), updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    const welcome = await writeToOutbox(tx, ctx, {
      to: user!.email,
      template: 'welcome',
      language: user!.language as Language,
      name: user!.firstName,
      actionPath: areaPaths(user!.kind).login,
      userId: user!.id,
      companyId: user!.companyId,
    });
    // The employees who waited for this address: those of someone who may invite employees to their company.
    const inviter = user!.companyId ? await loadUserActor(tx, user!.id, null) : null;
    const invites =
      inviter && userAccess.can(inviter, 'create', { companyId: user!.companyId, kind: 'Employee' })
        ? { companyId: user!.companyId!, inviterId: user!.id }
        : null;
    return { welcome, invites };
  });
  await dispatch(ctx, [outcome.welcome]);
  if (outcome.invites)
    await sendWaitingInvitations(ctx, outcome.invites.companyId, outcome.invites.inviterId);
}

/** Sends a fresh verification link to a signed-in user whose address is not yet confirmed (limited per address). */
export async function resendVerification(ctx: AppContext, actor: Actor): Promise<void> {
  await takeMailFormSlot(ctx, { recipient: actor.email });
  const emailId = await ctx.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, actor.userId));
    if (!user || user.emailVerifiedAt) return null;
    const token = await issueUserToken(tx, user.id, 'verify_email');
    return writeToOutbox(tx, ctx, {
      to: user.email,
      template: 'verifyEmail',
      language: user.language,
      name: user.firstName,
      ...singleUseLink('/verify', token),
      userId: user.id,
      companyId: user.companyId,
    });
  });
  if (emailId) await dispatch(ctx, [emailId]);
}
