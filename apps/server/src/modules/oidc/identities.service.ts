import { ENVIRONMENT_GOOGLE_ID, GOOGLE_ISSUER, type LinkedIdentity } from '@werkwissen/shared';
import { and, asc, count, eq, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { refuseWhileImpersonating } from '../../core/impersonation-guard.ts';
import type { DbOrTx } from '../../db/database.ts';
import { signInProviders, userIdentities, users } from '../../db/schema/index.ts';
import type { IdentityClaims } from './oidc-client.ts';
import { linkableProviders } from './sign-in-providers.service.ts';

/** The user a provider account (issuer, subject) is linked to. */
export async function findIdentity(db: DbOrTx, claims: IdentityClaims) {
  const [row] = await db
    .select({ id: userIdentities.id, userId: userIdentities.userId })
    .from(userIdentities)
    .where(and(eq(userIdentities.issuer, claims.issuer), eq(userIdentities.subject, claims.subject)));
  return row ?? null;
}

/** Links a provider account to a user, or notes its use when it already is. */
export async function saveIdentity(db: DbOrTx, userId: string, providerId: string, claims: IdentityClaims) {
  const now = new Date();
  await db
    .insert(userIdentities)
    .values({
      userId,
      // The environment's Google client has no row to point at; the issuer names it.
      providerId: providerId === ENVIRONMENT_GOOGLE_ID ? null : providerId,
      issuer: claims.issuer,
      subject: claims.subject,
      email: claims.email,
      lastUsedAt: now,
    })
    .onConflictDoUpdate({
      target: [userIdentities.issuer, userIdentities.subject],
      set: { email: claims.email, lastUsedAt: now },
    });
}

/** The caller's linked accounts, and the providers they may link. */
export async function listIdentities(ctx: AppContext, actor: Actor) {
  const rows = await ctx.db
    .select({ identity: userIdentities, providerName: signInProviders.name })
    .from(userIdentities)
    .leftJoin(signInProviders, eq(signInProviders.id, userIdentities.providerId))
    .where(eq(userIdentities.userId, actor.userId))
    .orderBy(asc(userIdentities.createdAt));
  const items: LinkedIdentity[] = rows.map(({ identity, providerName }) => ({
    id: identity.id,
    providerId: identity.providerId,
    providerName:
      providerName ?? (identity.issuer === GOOGLE_ISSUER ? 'Google' : new URL(identity.issuer).hostname),
    email: identity.email,
    createdAt: identity.createdAt.toISOString(),
    lastUsedAt: identity.lastUsedAt?.toISOString() ?? null,
  }));
  return { items, linkable: await linkableProviders(ctx) };
}

/** Removes one of the caller's linked accounts; never the last way to sign in of an account without a password. */
export async function unlinkIdentity(ctx: AppContext, actor: Actor, identityId: string) {
  refuseWhileImpersonating(actor);
  return ctx.db.transaction(async (tx) => {
    const [identity] = await tx
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.id, identityId), eq(userIdentities.userId, actor.userId)));
    if (!identity) throw new AppError('NOT_FOUND');
    const [password] = await tx
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.id, actor.userId), isNotNull(users.passwordHash)));
    const [linked] = await tx
      .select({ n: count() })
      .from(userIdentities)
      .where(eq(userIdentities.userId, actor.userId));
    if (password!.n === 0 && linked!.n <= 1) throw new AppError('IDENTITY_LAST_SIGN_IN');
    await tx.delete(userIdentities).where(eq(userIdentities.id, identityId));
    const before = { issuer: identity.issuer, subject: identity.subject, email: identity.email };
    return { change: { before, after: null } };
  });
}
