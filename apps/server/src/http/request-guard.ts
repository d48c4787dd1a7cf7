import { languageFromAcceptHeader, type RoutePermission } from '@werkwissen/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { type Actor, loadApiKeyActor, loadSessionActor } from '../core/actor.ts';
import { AppError } from '../core/app-error.ts';
import { safeEqual, sha256 } from '../core/token-crypto.ts';
import { ACCESS_COOKIE, CSRF_HEADER } from './cookies.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /** `metricsToken`: the Prometheus scraper's bearer token (METRICS_TOKEN), which is no user's. */
    permission?: RoutePermission | 'metricsToken';
    operationId?: string;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Runs before every route: finds the actor (API key or session cookie), refuses a cookie-authenticated mutating
 * request without its CSRF token, and checks the route's declared permission. A route without one is refused.
 */
export function registerRequestGuard(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    const permission = request.routeOptions.config.permission;
    if (permission === undefined) {
      if (request.is404) return;
      throw new AppError('INTERNAL', { reason: 'route declares no permission' });
    }
    if (permission === 'metricsToken') {
      if (!bearerIs(request.headers.authorization, ctx.config.METRICS_TOKEN))
        throw new AppError('UNAUTHENTICATED');
      return;
    }
    const outcome = await authenticate(request, ctx);
    request.actor = outcome.actor;
    if (outcome.actor && outcome.actor.via === 'session' && !SAFE_METHODS.has(request.method)) {
      const sent = request.headers[CSRF_HEADER];
      const expected = ctx.signer.csrfFor(outcome.actor.sessionId!);
      if (typeof sent !== 'string' || !safeEqual(sent, expected)) throw new AppError('CSRF_INVALID');
    }
    if (permission === 'public') return;
    if (!outcome.actor) throw new AppError(outcome.expired ? 'SESSION_EXPIRED' : 'UNAUTHENTICATED');
    if (permission === 'signedIn') return;
    if (!outcome.actor.ability.can(permission.action, permission.subject)) throw new AppError('FORBIDDEN');
  });
}

/** Whether an Authorization header carries exactly this bearer token (compared in constant time). */
function bearerIs(header: string | undefined, token: string | undefined): boolean {
  const sent = header && /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  return Boolean(token && sent && safeEqual(sent, token));
}

async function authenticate(
  request: FastifyRequest,
  ctx: AppContext,
): Promise<{ actor: Actor | null; expired: boolean }> {
  const header = request.headers.authorization;
  if (header) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    const actor = m ? await loadApiKeyActor(ctx.db, sha256(m[1]!)) : null;
    if (!actor) throw new AppError('UNAUTHENTICATED');
    return { actor, expired: false };
  }
  const token = request.cookies[ACCESS_COOKIE];
  if (!token) return { actor: null, expired: false };
  const verified = await ctx.signer.verifyAccess(token);
  if (verified === 'expired') return { actor: null, expired: true };
  if (verified === 'invalid') return { actor: null, expired: false };
  const { userId, sessionId } = verified;
  const actor = await ctx.actors.get(`session:${sessionId}:${userId}`, () =>
    loadSessionActor(ctx.db, userId, sessionId),
  );
  return { actor, expired: actor === null };
}

/**
 * The caller's language: their saved choice, else Accept-Language, else the installation's default (the system
 * setting as this process last read it: this runs synchronously, in every error answer).
 */
export function requestLanguage(request: FastifyRequest, ctx: AppContext) {
  return (
    request.actor?.language ??
    languageFromAcceptHeader(request.headers['accept-language']) ??
    ctx.settings.lastRead().general.defaultLanguage
  );
}
