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
    /**
     * `metricsToken`: the Prometheus scraper's bearer token (METRICS_TOKEN), which is no user's. `oauthServer`: the
     * OAuth authorization server's own endpoints and metadata, which authenticate their clients themselves.
     */
    permission?: RoutePermission | 'metricsToken' | 'oauthServer';
    operationId?: string;
    /** The route accepts the access tokens of the MCP authorization server too (the MCP server, a protected resource). */
    oauthResource?: boolean;
  }
}

/** A protected resource's way with bearer tokens that are no API key (the MCP server's OAuth access tokens). */
export interface BearerResource {
  /** The actor a token acts as, or null when it is unknown, expired, revoked or for another resource. */
  actorOf(token: string): Promise<Actor | null>;
  /** The WWW-Authenticate challenge of a 401 (RFC 6750, with the resource's metadata address of RFC 9728). */
  challenge(error?: 'invalid_token'): string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Runs before every route: finds the actor (API key or session cookie), refuses a cookie-authenticated mutating
 * request without its CSRF token, and checks the route's declared permission. A route without one is refused.
 */
export function registerRequestGuard(
  app: FastifyInstance,
  ctx: AppContext,
  bearerResource?: BearerResource,
): void {
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
    if (permission === 'oauthServer') return;
    const resource = request.routeOptions.config.oauthResource ? bearerResource : undefined;
    const outcome = await authenticate(request, ctx, resource);
    request.actor = outcome.actor;
    if (outcome.actor && outcome.actor.via === 'session' && !SAFE_METHODS.has(request.method)) {
      const sent = request.headers[CSRF_HEADER];
      const expected = ctx.signer.csrfFor(outcome.actor.sessionId!);
      if (typeof sent !== 'string' || !safeEqual(sent, expected)) throw new AppError('CSRF_INVALID');
    }
    if (permission === 'public') return;
    if (!outcome.actor) {
      if (resource)
        throw new AppError('UNAUTHENTICATED', undefined, { 'www-authenticate': resource.challenge() });
      throw new AppError(outcome.expired ? 'SESSION_EXPIRED' : 'UNAUTHENTICATED');
    }
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
  resource: BearerResource | undefined,
): Promise<{ actor: Actor | null; expired: boolean }> {
  const header = request.headers.authorization;
  if (header) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    const token = m?.[1];
    // An API key's actor is kept like a session's (`ctx.actors`: a second, emptied by this process's writes to
    // the tables it is read from, api_keys among them), by the key's hash.
    const keyHash = token ? sha256(token) : null;
    const actor = keyHash
      ? ((await ctx.actors.get(`apiKey:${keyHash}`, () => loadApiKeyActor(ctx.db, keyHash))) ??
        (resource ? await resource.actorOf(token!) : null))
      : null;
    if (!actor) {
      const headers = resource ? { 'www-authenticate': resource.challenge('invalid_token') } : undefined;
      throw new AppError('UNAUTHENTICATED', undefined, headers);
    }
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
