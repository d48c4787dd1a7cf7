import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { ImpersonatedReads } from './impersonated-reads.ts';

const SIGN_IN_EVENTS = new Set(['login', 'logout', 'refresh', 'verifySecondFactor', 'oidcCallback']);

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request changed, before and after, for its activity entry (platform settings and templates). */
    activityChange?: { before: unknown; after: unknown };
  }
}

/**
 * Attaches what a request changed to its activity entry. Route handlers call it with the change their service
 * returned: services never see the request, and the entry is written once the answer is sent.
 */
export function noteChange(request: FastifyRequest, change: { before: unknown; after: unknown }): void {
  request.activityChange = change;
}

const impersonatedReads = new ImpersonatedReads();

/** The address a request read, without its query. */
const pathOf = (request: FastifyRequest) => request.url.split('?')[0]!;

/**
 * A read while an operator views the product as someone: of a resource (a route whose permission names a subject,
 * so not the shell's own `me` or settings), the first of its address within the view for READ_REPEAT_MINUTES.
 */
function isImpersonatedRead(request: FastifyRequest): boolean {
  const actor = request.actor;
  const permission = request.routeOptions.config.permission;
  if (request.method !== 'GET' || !actor?.impersonator || !actor.sessionId) return false;
  if (typeof permission !== 'object') return false;
  return impersonatedReads.firstOf(actor.sessionId, pathOf(request));
}

/**
 * Whether a finished request belongs in the activity log: every mutating request and every sign-in event, and what
 * an operator opens while viewing the product as someone (`isImpersonatedRead`).
 */
export function isLoggedActivity(request: FastifyRequest): boolean {
  const operationId = request.routeOptions.config.operationId;
  if (!operationId) return false;
  if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method) || SIGN_IN_EVENTS.has(operationId)) return true;
  return isImpersonatedRead(request);
}

/** Text with every C0 control and DEL (a NUL byte cannot even be stored) as U+FFFD, the replacement character. */
const withoutControls = (text: string) =>
  Array.from(text, (c) => (c.charCodeAt(0) < 0x20 || c === '\u007f' ? '\ufffd' : c)).join('');

/** Records one request after its answer is sent, through the batching writer (a failure is logged, never surfaced). */
export function recordActivity(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): void {
  const actor = request.actor;
  const body = request.body as { email?: unknown } | undefined;
  // As typed, also when validation refused it: control characters show as replacement characters.
  const attemptedEmail =
    typeof body?.email === 'string' ? withoutControls(body.email.toLowerCase().slice(0, 254)) : null;
  ctx.activity.add({
    actorUserId: actor?.userId ?? null,
    actorEmail: actor?.email ?? attemptedEmail,
    impersonatorUserId: actor?.impersonator?.userId ?? null,
    impersonatorEmail: actor?.impersonator?.email ?? null,
    companyId: actor?.companyId ?? null,
    action: request.routeOptions.config.operationId ?? 'unknown',
    method: request.method,
    // The route's pattern; for a read while viewing as someone, the address itself: which chat or file was opened.
    endpoint:
      request.method === 'GET' && actor?.impersonator
        ? pathOf(request)
        : (request.routeOptions.url ?? pathOf(request)),
    statusCode: reply.statusCode,
    ip: request.ip,
    requestId: request.id,
    changes: request.activityChange ?? null,
    createdAt: new Date(),
  });
}
