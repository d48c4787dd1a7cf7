import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { refuseWhileImpersonating } from '../../core/impersonation-guard.ts';
import { consumeUserTokenRow, issueUserToken } from '../../core/user-tokens.ts';
import { emailTaken } from '../../core/users.queries.ts';
import type { DbOrTx } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';
import { releaseSlots } from '../limits/rate-limiter.ts';
import { singleUseLink } from '../mail/hidden-link.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { areaPaths } from './areas.ts';
import { beginPasswordCheck } from './login-limiter.ts';
import { takeMailFormSlot } from './mail-form-limits.ts';
import { verifyPassword } from './password-hashing.ts';

async function refuseTaken(tx: DbOrTx, email: string, userId: string): Promise<void> {
  if (await emailTaken(tx, email, userId)) throw new AppError('EMAIL_TAKEN', { field: 'email' });
}

/**
 * Asks to move the signed-in account to a new address: the current password proves it is the owner (wrong ones are
 * limited like failed sign-ins), and a confirmation link goes to the new address. Until it is opened the account
 * keeps its address, so a typo never locks anyone out. Refused while an operator views the product as the user.
 */
export async function requestEmailChange(
  ctx: AppContext,
  actor: Actor,
  input: { email: string; currentPassword: string },
): Promise<void> {
  refuseWhileImpersonating(actor);
  const slots = await beginPasswordCheck(ctx, actor.userId);
  const [user] = await ctx.db.select().from(users).where(eq(users.id, actor.userId));
  if (!user || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError('CURRENT_PASSWORD_WRONG', { field: 'currentPassword' });
  }
  await releaseSlots(ctx, slots);
  if (input.email === user.email.toLowerCase()) throw new AppError('EMAIL_UNCHANGED', { field: 'email' });
  await takeMailFormSlot(ctx, { recipient: input.email });
  const emailId = await ctx.db.transaction(async (tx) => {
    await refuseTaken(tx, input.email, user.id);
    const token = await issueUserToken(tx, user.id, 'change_email', input.email);
    return writeToOutbox(tx, ctx, {
      to: input.email,
      template: 'changeEmail',
      language: user.language,
      name: user.firstName,
      ...singleUseLink('/confirm-email', token),
      values: { newEmail: input.email },
      userId: user.id,
      companyId: user.companyId,
      // A company user picks the recipient: the company's budget counts it.
      budgeted: true,
    });
  });
  await dispatch(ctx, [emailId]);
}

/**
 * Opens the confirmation link: the account takes the new address (confirmed, since the mail reached it), and the
 * old address is told, so that an owner who did not ask for it learns of it. Answers with the new address.
 */
export async function confirmEmailChange(ctx: AppContext, token: string): Promise<{ email: string }> {
  const { email, emailId } = await ctx.db.transaction(async (tx) => {
    const { userId, newEmail } = await consumeUserTokenRow(tx, token, 'change_email');
    if (!newEmail) throw new AppError('TOKEN_INVALID');
    await refuseTaken(tx, newEmail, userId);
    const [before] = await tx.select().from(users).where(eq(users.id, userId));
    await tx
      .update(users)
      .set({ email: newEmail, emailVerifiedAt: new Date(), updatedAt: new Date() })
      .where(eq(users.id, userId));
    const notice = await writeToOutbox(tx, ctx, {
      to: before!.email,
      template: 'emailChanged',
      language: before!.language,
      name: before!.firstName,
      actionPath: areaPaths(before!.kind).login,
      values: { newEmail },
      userId,
      companyId: before!.companyId,
    });
    return { email: newEmail, emailId: notice };
  });
  await dispatch(ctx, [emailId]);
  return { email };
}
