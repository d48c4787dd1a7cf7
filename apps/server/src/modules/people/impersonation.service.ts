import { IMPERSONATION_MINUTES, type LoginArea, type MeResponse } from '@werkwissen/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { userAccess } from '../../access/user.access.ts';
import type { AppContext } from '../../app-context.ts';
import { type Actor, loadSessionActor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { safeEqual, sha256 } from '../../core/token-crypto.ts';
import { authSessions, refreshTokens, users } from '../../db/schema/index.ts';
import type { IssuedSession } from '../../http/cookies.ts';
import { presentMe } from '../auth/me.presenter.ts';
import type { ClientInfo } from '../auth/session.service.ts';
import { issueRefreshToken, revokeSessions, tokensFor } from '../auth/session.service.ts';

/** The kinds of user an operator may view the product as, and the area each one's session opens. */
const VIEWABLE: Record<string, LoginArea> = { DataManager: 'user', Employee: 'employee' };

export interface ImpersonationChange {
  me: MeResponse;
  tokens: IssuedSession;
  /** Who acts now (the viewed user at the start, the operator at the end), for the activity entry. */
  actor: Actor;
  /** For the activity log: whom the operator viewed as. */
  change: { before: unknown; after: unknown };
}

/**
 * Starts viewing the product as a data manager or employee the operator's User rules let them read: a session of
 * that user which names the operator's own (kept open for the way back) and ends by itself after
 * IMPERSONATION_MINUTES. Only from a signed-in session, never as someone already being viewed as, never as oneself.
 */
export async function startImpersonation(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  client: ClientInfo,
): Promise<ImpersonationChange> {
  if (!actor.sessionId || actor.impersonator) throw new AppError('FORBIDDEN');
  const [target] = await ctx.db
    .select({ id: users.id, email: users.email, kind: users.kind })
    .from(users)
    .where(and(eq(users.id, userId), userAccess.where(actor, 'read')));
  if (!target) throw notFound();
  const area = VIEWABLE[target.kind];
  if (!area || target.id === actor.userId) throw new AppError('IMPERSONATION_NOT_ALLOWED');
  const expiresAt = new Date(Date.now() + IMPERSONATION_MINUTES * 60_000);
  const { sessionId, refreshToken } = await ctx.db.transaction(async (tx) => {
    const [session] = await tx
      .insert(authSessions)
      .values({
        userId: target.id,
        area,
        ip: client.ip,
        userAgent: client.userAgent?.slice(0, 300),
        impersonatorSessionId: actor.sessionId,
        expiresAt,
      })
      .returning({ id: authSessions.id });
    return { sessionId: session!.id, refreshToken: await issueRefreshToken(tx, session!.id) };
  });
  // Deactivated users and suspended companies are not admitted: the session is refused at once.
  const viewed = await loadSessionActor(ctx.db, target.id, sessionId);
  if (!viewed) {
    await revokeSessions(ctx.db, { sessionId }, 'impersonation_refused');
    throw new AppError('IMPERSONATION_NOT_ALLOWED');
  }
  return {
    me: await presentMe(ctx, viewed),
    tokens: await tokensFor(ctx, target.id, sessionId, refreshToken),
    actor: { ...actor },
    change: { before: null, after: { impersonating: { userId: target.id, email: target.email }, expiresAt } },
  };
}

/**
 * Ends viewing as a user, also after its time limit: the impersonation session is found by its refresh cookie and
 * must carry its CSRF token; it is revoked and the operator's own session, still open, gets fresh tokens, so
 * "Back to admin" needs no new sign-in.
 */
export async function endImpersonation(
  ctx: AppContext,
  refreshToken: string | undefined,
  csrfToken: string | undefined,
): Promise<ImpersonationChange> {
  if (!refreshToken) throw new AppError('NOT_IMPERSONATING');
  const [row] = await ctx.db
    .select({ session: authSessions, email: users.email })
    .from(refreshTokens)
    .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(eq(refreshTokens.tokenHash, sha256(refreshToken)));
  if (!row?.session.impersonatorSessionId || row.session.revokedAt) throw new AppError('NOT_IMPERSONATING');
  const { session } = row;
  if (!csrfToken || !safeEqual(csrfToken, ctx.signer.csrfFor(session.id))) throw new AppError('CSRF_INVALID');
  const ownSessionId = row.session.impersonatorSessionId;
  const [own] = await ctx.db
    .select({ userId: authSessions.userId })
    .from(authSessions)
    .where(and(eq(authSessions.id, ownSessionId), isNull(authSessions.revokedAt)));
  const expired = session.expiresAt !== null && session.expiresAt.getTime() <= Date.now();
  const next = await ctx.db.transaction(async (tx) => {
    // Every impersonation of this operator's session ends (a second tab's too).
    await tx
      .update(authSessions)
      .set({
        revokedAt: new Date(),
        revokedReason: expired ? 'impersonation_expired' : 'impersonation_ended',
      })
      .where(and(eq(authSessions.impersonatorSessionId, ownSessionId), isNull(authSessions.revokedAt)));
    return own ? issueRefreshToken(tx, ownSessionId) : null;
  });
  const operator = own ? await loadSessionActor(ctx.db, own.userId, ownSessionId) : null;
  if (!operator || !next) throw new AppError('SESSION_EXPIRED');
  return {
    me: await presentMe(ctx, operator),
    tokens: await tokensFor(ctx, operator.userId, ownSessionId, next),
    actor: operator,
    change: {
      before: { impersonating: { userId: session.userId, email: row.email }, expired },
      after: null,
    },
  };
}
