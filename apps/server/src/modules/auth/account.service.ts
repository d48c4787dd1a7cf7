import type { updateMeBodySchema } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { refusePhoneChange } from '../../core/impersonation-guard.ts';
import { storedPhone } from '../../core/person-phone.ts';
import { users } from '../../db/schema/index.ts';

/**
 * Saves the signed-in user's account details and interface language. The phone number is the user's WhatsApp
 * identity: an operator viewing the product as the user cannot change it (IMPERSONATION_RESTRICTED; saving it
 * unchanged, with other details, is fine), and a changed number answers on WhatsApp only once confirmed again.
 */
export async function updateAccount(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof updateMeBodySchema>,
): Promise<Actor> {
  input = { ...input, phone: storedPhone(input.phone, actor.language) };
  if (input.phone !== undefined && actor.impersonator)
    await refusePhoneChange(ctx, actor, actor.userId, input.phone);
  await ctx.db
    .update(users)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(users.id, actor.userId));
  return input.language ? { ...actor, language: input.language } : actor;
}
