import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { revokeUserApiKeys } from '../api-keys/api-keys.service.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import type { Actor } from './actor.ts';
import { areaPaths } from './areas.ts';
import { hashPassword, verifyPassword } from './password-hashing.ts';
import { revokeSessions } from './session.service.ts';
import { consumeUserToken, issueUserToken } from './user-tokens.ts';

/** Sends a reset link when the address belongs to an account; the caller answers the same either way. */
export async function forgotPassword(ctx: AppContext, email: string): Promise<void> {
  const emailId = await ctx.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(sql`lower(${users.email}) = ${email}`);
    if (!user || user.disabledAt) return null;
    const token = await issueUserToken(tx, user.id, 'reset_password');
    return writeToOutbox(tx, ctx, {
      to: user.email,
      template: 'passwordReset',
      language: user.language,
      name: user.firstName,
      actionPath: `${areaPaths(user.kind).confirmPassword}?token=${token}`,
      userId: user.id,
      companyId: user.companyId,
    });
  });
  if (emailId) await dispatch(ctx, [emailId]);
}

/**
 * Sets a password from a mailed single-use token (reset: 1 hour; invitation or first administrator: 7 days).
 * Ends every session of the user; the address counts as confirmed, since the mail reached its owner.
 */
export async function setPasswordWithToken(
  ctx: AppContext,
  token: string,
  password: string,
  purpose: 'reset_password' | 'set_password',
): Promise<void> {
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    const userId = await consumeUserToken(tx, token, purpose);
    await tx
      .update(users)
      .set({
        passwordHash,
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
    await revokeSessions(tx, { userId }, purpose === 'reset_password' ? 'password_reset' : 'password_set');
    if (purpose === 'reset_password') await revokeUserApiKeys(tx, userId);
  });
}

/** Changes the signed-in user's password and ends their other sessions (the current one stays). */
export async function changePassword(
  ctx: AppContext,
  actor: Actor,
  currentPassword: string,
  password: string,
  revokeApiKeys = false,
): Promise<void> {
  const [user] = await ctx.db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, actor.userId));
  if (!(await verifyPassword(user?.hash ?? null, currentPassword))) {
    throw new AppError('CURRENT_PASSWORD_WRONG', { field: 'currentPassword' });
  }
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, actor.userId));
    await revokeSessions(tx, { userId: actor.userId, exceptSessionId: actor.sessionId }, 'password_changed');
    if (revokeApiKeys) await revokeUserApiKeys(tx, actor.userId);
  });
}
