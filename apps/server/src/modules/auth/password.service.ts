import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { refuseWhileImpersonating } from '../../core/impersonation-guard.ts';
import { consumeUserToken } from '../../core/user-tokens.ts';
import { setPasswordHash } from '../../core/users.queries.ts';
import { users } from '../../db/schema/index.ts';
import { revokeUserApiKeys } from '../api-keys/api-keys.service.ts';
import { requireBotCheck } from '../bot-check/bot-check.ts';
import { releaseSlots } from '../limits/rate-limiter.ts';
import { areaPaths } from './areas.ts';
import { beginPasswordCheck } from './login-limiter.ts';
import { takeMailFormSlot } from './mail-form-limits.ts';
import { hashPassword, verifyPassword } from './password-hashing.ts';
import { passwordResetMailJob } from './password-reset-mail.job.ts';
import { liftSecondFactorLock } from './second-factor-limits.ts';
import { revokeSessions } from './session.service.ts';

/**
 * Asks for a reset link: limited per address and per recipient (the same for known and unknown addresses), then
 * queued. Whether the address belongs to an account is looked up by the job, after the answer, so that the answer
 * takes the same time either way.
 */
export async function forgotPassword(
  ctx: AppContext,
  input: { email: string; botCheck?: string },
  ip: string,
): Promise<void> {
  const { email } = input;
  await requireBotCheck(ctx, input.botCheck, ip);
  await takeMailFormSlot(ctx, { ip, recipient: email });
  await ctx.jobs.send(passwordResetMailJob, { email });
}

/**
 * Sets a password from a mailed single-use token (reset: 1 hour; invitation or first administrator: 7 days).
 * Ends every session of the user; the address counts as confirmed, since the mail reached its owner. Answers
 * with the address and the sign-in page of the user's area, where the page sends them next.
 */
export async function setPasswordWithToken(
  ctx: AppContext,
  input: { token: string; password: string; botCheck?: string },
  purpose: 'reset_password' | 'set_password',
  ip: string,
): Promise<{ email: string; loginPath: string }> {
  const { token, password } = input;
  await requireBotCheck(ctx, input.botCheck, ip);
  const passwordHash = await hashPassword(password);
  return ctx.db.transaction(async (tx) => {
    const userId = await consumeUserToken(tx, token, purpose);
    const user = await setPasswordHash(tx, userId, passwordHash, true);
    await revokeSessions(tx, { userId }, purpose === 'reset_password' ? 'password_reset' : 'password_set');
    await liftSecondFactorLock(tx, userId);
    if (purpose === 'reset_password') await revokeUserApiKeys(tx, userId);
    return { email: user!.email, loginPath: areaPaths(user!.kind).login };
  });
}

/**
 * Changes the signed-in user's password and ends their other sessions (the current one stays). Wrong current
 * passwords are limited like failed sign-ins.
 */
export async function changePassword(
  ctx: AppContext,
  actor: Actor,
  currentPassword: string,
  password: string,
  revokeApiKeys = false,
): Promise<void> {
  refuseWhileImpersonating(actor);
  const slots = await beginPasswordCheck(ctx, actor.userId);
  const [user] = await ctx.db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, actor.userId));
  if (!(await verifyPassword(user?.hash ?? null, currentPassword))) {
    throw new AppError('CURRENT_PASSWORD_WRONG', { field: 'currentPassword' });
  }
  await releaseSlots(ctx, slots);
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    await setPasswordHash(tx, actor.userId, passwordHash, false);
    await revokeSessions(tx, { userId: actor.userId, exceptSessionId: actor.sessionId }, 'password_changed');
    await liftSecondFactorLock(tx, actor.userId);
    if (revokeApiKeys) await revokeUserApiKeys(tx, actor.userId);
  });
}
