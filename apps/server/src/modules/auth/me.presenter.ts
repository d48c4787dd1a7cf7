import type { MeResponse, UserData } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { companies, users } from '../../db/schema/index.ts';
import { servedAgain } from '../../http/serializer.ts';

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
  return meOf(ctx, actor, await cachedUserData(ctx, actor));
}

const presented = new WeakMap<Actor, { userData: UserData; me: MeResponse }>();

/**
 * `presentMe` for the actor of the request guard, which `ctx.actors` (a `ReadCache`) keeps for up to a second: the
 * same answer object while the actor and the user's data are the same cached ones, marked `servedAgain`, so that a
 * busy session's `GET /auth/me` is checked against its schema and stringified once a second rather than on every
 * request.
 */
export async function presentCachedMe(ctx: AppContext, actor: Actor): Promise<MeResponse> {
  const userData = await cachedUserData(ctx, actor);
  const known = presented.get(actor);
  if (known?.userData === userData) return known.me;
  const me = servedAgain(meOf(ctx, actor, userData));
  presented.set(actor, { userData, me });
  return me;
}

function cachedUserData(ctx: AppContext, actor: Actor): Promise<UserData> {
  return ctx.actors.get(`user:${actor.userId}`, () => loadUserData(ctx, actor.userId));
}

function meOf(ctx: AppContext, actor: Actor, userData: UserData): MeResponse {
  return {
    userData,
    userRole: actor.kind,
    userAbilityRules: actor.rules,
    csrfToken: actor.sessionId ? ctx.signer.csrfFor(actor.sessionId) : null,
    impersonation: actor.impersonator
      ? { by: actor.impersonator.email, expiresAt: actor.impersonator.expiresAt.toISOString() }
      : null,
  };
}
