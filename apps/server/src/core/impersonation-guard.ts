import { phoneDigits } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../app-context.ts';
import { users } from '../db/schema/index.ts';
import type { Actor } from './actor.ts';
import { AppError } from './app-error.ts';

/**
 * Refuses a change of who the user is (password, e-mail address, phone number, second factor, sign-in providers, API
 * keys) while an operator views the product as them: support may look and help, never take the account over or plant
 * a way back in.
 */
export function refuseWhileImpersonating(actor: Actor): void {
  if (actor.impersonator) throw new AppError('IMPERSONATION_RESTRICTED');
}

/**
 * While an operator views the product as someone, a user's phone number (their WhatsApp identity) stays as it is:
 * IMPERSONATION_RESTRICTED when `phone` names other digits than the saved number's.
 */
export async function refusePhoneChange(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  phone: string | null,
): Promise<void> {
  if (!actor.impersonator) return;
  const [user] = await ctx.db.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
  if (user && phoneDigits(user.phone) !== phoneDigits(phone)) {
    throw new AppError('IMPERSONATION_RESTRICTED', { field: 'phone' });
  }
}
