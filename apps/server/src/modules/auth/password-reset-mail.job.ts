import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { issueUserToken } from '../../core/user-tokens.ts';
import { userByEmail } from '../../core/users.queries.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import { singleUseLink } from '../mail/hidden-link.ts';
import { dispatch, writeToOutbox } from '../mail/outbox.service.ts';
import { areaPaths } from './areas.ts';

/** Writes the reset mail when the address belongs to an enabled account; otherwise nothing happens. */
export async function sendPasswordResetMail(ctx: AppContext, email: string): Promise<void> {
  const emailId = await ctx.db.transaction(async (tx) => {
    const user = await userByEmail(tx, email);
    if (!user || user.disabledAt) return null;
    const token = await issueUserToken(tx, user.id, 'reset_password');
    return writeToOutbox(tx, ctx, {
      to: user.email,
      template: 'passwordReset',
      language: user.language,
      name: user.firstName,
      ...singleUseLink(areaPaths(user.kind).confirmPassword, token),
      userId: user.id,
      companyId: user.companyId,
    });
  });
  if (emailId) await dispatch(ctx, [emailId]);
}

/** Looks the address up and writes the reset mail, after the forgot-password form has already answered. */
export const passwordResetMailJob = defineJob({
  name: 'auth.password-reset-mail',
  schema: z.object({ email: z.string() }),
  retryLimit: 3,
  retryDelaySeconds: 5,
  expireInSeconds: 60,
  async handler({ email }, ctx) {
    await sendPasswordResetMail(ctx, email);
  },
});
