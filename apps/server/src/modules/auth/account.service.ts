import type { updateMeBodySchema } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { users } from '../../db/schema/index.ts';
import type { Actor } from './actor.ts';

/** Saves the signed-in user's account details and interface language. */
export async function updateAccount(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof updateMeBodySchema>,
): Promise<Actor> {
  await ctx.db
    .update(users)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(users.id, actor.userId));
  return input.language ? { ...actor, language: input.language } : actor;
}
