import type { MeResponse, UserData } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { companies, users } from '../../db/schema/index.ts';

/** Shapes a user for the wire: what the browser stores as `userData`. */
export async function loadUserData(ctx: AppContext, userId: string): Promise<UserData> {
  const [row] = await ctx.db
    .select({ user: users, companyName: companies.name })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId));
  if (!row) throw new AppError('UNAUTHENTICATED');
  const u = row.user;
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    fullName: `${u.firstName} ${u.lastName}`.trim(),
    phone: u.phone,
    language: u.language,
    country: u.country,
    kind: u.kind,
    companyId: u.companyId,
    companyName: row.companyName ?? null,
    emailVerified: u.emailVerifiedAt !== null,
    createdAt: u.createdAt.toISOString(),
  };
}

/** The `me` answer: user data, role and the permission rules the browser mirrors. */
export async function presentMe(ctx: AppContext, actor: Actor): Promise<MeResponse> {
  return {
    userData: await ctx.actors.get(`user:${actor.userId}`, () => loadUserData(ctx, actor.userId)),
    userRole: actor.kind,
    userAbilityRules: actor.rules,
    csrfToken: actor.sessionId ? ctx.signer.csrfFor(actor.sessionId) : null,
    impersonation: actor.impersonator
      ? { by: actor.impersonator.email, expiresAt: actor.impersonator.expiresAt.toISOString() }
      : null,
  };
}
