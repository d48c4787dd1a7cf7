import { LOGIN_BY_AREA, type LoginArea, type MeResponse } from '@werkwissen/shared';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { type Actor, loadSessionActor, loadUserActor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { REFRESH_TOKEN_SECONDS, randomToken, safeEqual, sha256 } from '../../core/token-crypto.ts';
import { signInStanding } from '../../core/users.queries.ts';
import type { DbOrTx } from '../../db/database.ts';
import { authSessions, refreshTokens } from '../../db/schema/index.ts';
import type { IssuedSession } from '../../http/cookies.ts';
import { verifyBotCheck } from '../bot-check/bot-check.ts';
import { beginLoginAttempt, endLoginAttempt } from './login-limiter.ts';
import { presentMe } from './me.presenter.ts';
import { verifyPassword } from './password-hashing.ts';
import {
  openChallenge,
  passChallenge,
  type SecondFactorProof,
  type SecondFactorStep,
  secondFactorStep,
} from './second-factor.service.ts';

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

/** The areas a user may call home, in order: an operator who may also read the user area is still at home in admin. */
const HOME_AREAS = ['admin', 'user', 'employee'] as const;

/** The area a user signs in to: the first their rules open (`read admin`, `read user`, `read employee`), or none. */
function homeArea(actor: Actor): LoginArea | null {
  return HOME_AREAS.find((area) => actor.ability.can('read', area)) ?? null;
}

/**
 * Whether a user may sign in to an area: their own, and for back-office users with the `analysis` permission also
 * the analysis area. A user of another area is sent to their own (WRONG_AREA).
 */
function belongsToArea(actor: Actor, home: LoginArea, area: LoginArea): boolean {
  return area === home || (area === 'analysis' && home === 'admin' && actor.ability.can('read', 'analysis'));
}

export async function issueRefreshToken(tx: DbOrTx, sessionId: string): Promise<string> {
  const token = randomToken();
  await tx.insert(refreshTokens).values({
    sessionId,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_SECONDS * 1000),
  });
  return token;
}

export async function issueSession(ctx: AppContext, actor: Actor, area: LoginArea, client: ClientInfo) {
  return ctx.db.transaction(async (tx) => {
    const [session] = await tx
      .insert(authSessions)
      .values({ userId: actor.userId, area, ip: client.ip, userAgent: client.userAgent?.slice(0, 300) })
      .returning({ id: authSessions.id });
    const refreshToken = await issueRefreshToken(tx, session!.id);
    return { sessionId: session!.id, refreshToken };
  });
}

export async function tokensFor(
  ctx: AppContext,
  userId: string,
  sessionId: string,
  refreshToken: string,
): Promise<IssuedSession> {
  return {
    accessToken: await ctx.signer.signAccess(userId, sessionId),
    refreshToken,
    csrfToken: ctx.signer.csrfFor(sessionId),
  };
}

export type LoginOutcome =
  | { me: MeResponse; tokens: IssuedSession; actor: Actor }
  | { secondFactor: SecondFactorStep; challengeToken: string; actor: Actor };

/**
 * Signs a user in to one area: reserves the attempt's failure slots (429 when the address or this address's
 * guesses at the account are used up), asks for the bot check once the account has had too many failures from
 * anywhere (before the password is looked at, so the answer tells nothing about it), then checks the password and
 * the area and opens a session. A user of another area, with the right password, is told their area. When a
 * second factor follows (enrolled, or required by the user's rules), no session is opened yet: the answer is a
 * pending sign-in (`ww_2fa`) that `completeSecondFactor` turns into one.
 */
export async function login(
  ctx: AppContext,
  input: { email: string; password: string; area: LoginArea; botCheck?: string },
  client: ClientInfo,
): Promise<LoginOutcome> {
  const attempt = await beginLoginAttempt(ctx, input.email, client.ip);
  if (
    attempt.accountFailures >= ctx.config.LOGIN_MAX_FAILURES_PER_ACCOUNT &&
    !(await verifyBotCheck(ctx, input.botCheck, client.ip))
  ) {
    await endLoginAttempt(ctx, attempt);
    throw new AppError(input.botCheck ? 'BOT_CHECK_FAILED' : 'BOT_CHECK_REQUIRED');
  }
  const user = await signInStanding(ctx.db, { email: input.email });
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (user && passwordOk) {
    // Only someone who knows the password learns that the account or its company was switched off.
    if (user.disabledAt || user.suspendedAt) await endLoginAttempt(ctx, attempt);
    if (user.disabledAt) throw new AppError('ACCOUNT_DEACTIVATED');
    if (user.suspendedAt) throw new AppError('COMPANY_SUSPENDED');
  }
  const actor = user && passwordOk ? await loadUserActor(ctx.db, user.id, null) : null;
  const home = actor && homeArea(actor);
  if (!actor || !home) throw new AppError('INVALID_CREDENTIALS');
  await endLoginAttempt(ctx, attempt);
  // Only someone who knows the password learns where the account signs in; a wrong password gets the 401 above.
  return enterArea(ctx, actor, home, input.area, client);
}

/**
 * The end of every sign-in once the user is known (by password or by a provider's ID token): a user of another area
 * is told theirs; a user with a second factor (or who must enrol) gets a pending sign-in, everyone else a session.
 */
async function enterArea(
  ctx: AppContext,
  actor: Actor,
  home: LoginArea,
  area: LoginArea,
  client: ClientInfo,
): Promise<LoginOutcome> {
  if (!belongsToArea(actor, home, area)) {
    throw new AppError('WRONG_AREA', { area: home, loginPath: LOGIN_BY_AREA[home] });
  }
  const step = await secondFactorStep(ctx, actor);
  if (step)
    return { secondFactor: step, challengeToken: await openChallenge(ctx, actor.userId, area), actor };
  return openSession(ctx, actor, area, client);
}

/**
 * Signs in a user a provider vouched for (no password): deactivated, suspended or of no area, no session.
 */
export async function signInIdentifiedUser(
  ctx: AppContext,
  userId: string,
  area: LoginArea,
  client: ClientInfo,
): Promise<LoginOutcome> {
  const user = await signInStanding(ctx.db, { id: userId });
  if (user?.disabledAt) throw new AppError('ACCOUNT_DEACTIVATED');
  if (user?.suspendedAt) throw new AppError('COMPANY_SUSPENDED');
  const actor = await loadUserActor(ctx.db, userId, null);
  const home = actor && homeArea(actor);
  if (!actor || !home) throw new AppError('OIDC_NO_ACCOUNT');
  return enterArea(ctx, actor, home, area, client);
}

async function openSession(ctx: AppContext, actor: Actor, area: LoginArea, client: ClientInfo) {
  const { sessionId, refreshToken } = await issueSession(ctx, actor, area, client);
  const sessionActor = { ...actor, sessionId };
  return {
    me: await presentMe(ctx, sessionActor),
    tokens: await tokensFor(ctx, actor.userId, sessionId, refreshToken),
    actor: sessionActor,
  };
}

/**
 * The second step of a sign-in: the pending sign-in of the `ww_2fa` cookie and a code (or a recovery code) open the
 * session. The account is checked again (deactivated or suspended meanwhile: no session).
 */
export async function completeSecondFactor(
  ctx: AppContext,
  challengeToken: string | undefined,
  proof: SecondFactorProof,
  client: ClientInfo,
) {
  const passed = await passChallenge(ctx, challengeToken, proof);
  const actor = await loadUserActor(ctx.db, passed.userId, null);
  if (!actor) throw new AppError('SESSION_EXPIRED');
  const session = await openSession(ctx, actor, passed.area as LoginArea, client);
  return { ...session, recoveryCodes: passed.recoveryCodes };
}

/**
 * Rotates a refresh token. A token that was already used means it leaked: the whole session (its family) is
 * revoked. The CSRF token of the session must accompany the cookie.
 */
export async function refresh(
  ctx: AppContext,
  refreshToken: string | undefined,
  csrfToken: string | undefined,
): Promise<{ me: MeResponse; tokens: IssuedSession; actor: Actor }> {
  if (!refreshToken) throw new AppError('SESSION_EXPIRED');
  const [row] = await ctx.db
    .select({ token: refreshTokens, session: authSessions })
    .from(refreshTokens)
    .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, sha256(refreshToken)));
  if (!row || row.session.revokedAt) throw new AppError('SESSION_EXPIRED');
  if (!csrfToken || !safeEqual(csrfToken, ctx.signer.csrfFor(row.session.id)))
    throw new AppError('CSRF_INVALID');
  if (row.token.usedAt) {
    await revokeSessions(ctx.db, { sessionId: row.session.id }, 'refresh_token_reuse');
    ctx.log.warn(
      { sessionId: row.session.id, userId: row.session.userId },
      'refresh token reused: session revoked',
    );
    throw new AppError('SESSION_EXPIRED');
  }
  if (row.token.expiresAt.getTime() < Date.now()) throw new AppError('SESSION_EXPIRED');
  // An impersonation ends at its time limit, however fresh its refresh token.
  if (row.session.expiresAt && row.session.expiresAt.getTime() <= Date.now())
    throw new AppError('SESSION_EXPIRED');
  const next = await ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(refreshTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(refreshTokens.id, row.token.id), isNull(refreshTokens.usedAt)))
      .returning({ id: refreshTokens.id });
    if (!claimed) return null;
    await tx.update(authSessions).set({ lastSeenAt: new Date() }).where(eq(authSessions.id, row.session.id));
    return issueRefreshToken(tx, row.session.id);
  });
  if (!next) throw new AppError('SESSION_EXPIRED');
  const actor = await loadSessionActor(ctx.db, row.session.userId, row.session.id);
  if (!actor) throw new AppError('SESSION_EXPIRED');
  return {
    me: await presentMe(ctx, actor),
    tokens: await tokensFor(ctx, actor.userId, row.session.id, next),
    actor,
  };
}

/** Ends the session a refresh token (or an access token's session id) belongs to. */
export async function logout(
  ctx: AppContext,
  refreshToken: string | undefined,
  sessionId: string | null,
): Promise<void> {
  if (sessionId) {
    await revokeSessions(ctx.db, { sessionId }, 'logout');
    return;
  }
  if (!refreshToken) return;
  const [row] = await ctx.db
    .select({ sessionId: refreshTokens.sessionId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256(refreshToken)));
  if (row) await revokeSessions(ctx.db, { sessionId: row.sessionId }, 'logout');
}

/** Revokes one session, or all of a user's sessions except one. */
export async function revokeSessions(
  db: DbOrTx,
  target: { sessionId: string } | { userId: string; exceptSessionId?: string | null },
  reason: string,
): Promise<void> {
  const where =
    'sessionId' in target
      ? eq(authSessions.id, target.sessionId)
      : and(
          eq(authSessions.userId, target.userId),
          target.exceptSessionId ? ne(authSessions.id, target.exceptSessionId) : undefined,
        );
  await db
    .update(authSessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(where, isNull(authSessions.revokedAt)));
}
