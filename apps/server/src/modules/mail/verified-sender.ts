import { eq } from 'drizzle-orm';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';

/**
 * A mail with the user's own text or recipients (a document to a customer, an invitation naming the company) goes
 * out only from an account whose address is confirmed: a fresh sign-up cannot send anything through the operator's
 * mail server before it proved an inbox (EMAIL_NOT_VERIFIED).
 */
export async function assertVerifiedSender(db: DbOrTx, actor: Actor): Promise<void> {
  const [user] = await db
    .select({ verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, actor.userId));
  if (!user?.verifiedAt) throw new AppError('EMAIL_NOT_VERIFIED');
}
