import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';

const SIGN_IN_EVENTS = new Set(['login', 'logout', 'refresh', 'verifySecondFactor', 'oidcCallback']);
/** Reads that are logged like changes: what they showed is others' business (a mail's full text). */
const LOGGED_READS = new Set(['getEmail']);

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

/**
 * Whether a finished request belongs in the activity log: every mutating request, every sign-in event, and the reads
 * of LOGGED_READS.
 */
export function isLoggedActivity(request: FastifyRequest): boolean {
  const operationId = request.routeOptions.config.operationId;
  if (!operationId) return false;
  return (
    !['GET', 'HEAD', 'OPTIONS'].includes(request.method) ||
    SIGN_IN_EVENTS.has(operationId) ||
    LOGGED_READS.has(operationId)
  );
}

/** Records one request after its answer is sent, through the batching writer (a failure is logged, never surfaced). */
export function recordActivity(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): void {
  const actor = request.actor;
  const body = request.body as { email?: unknown } | undefined;
  const attemptedEmail = typeof body?.email === 'string' ? body.email.toLowerCase().slice(0, 254) : null;
  ctx.activity.add({
    actorUserId: actor?.userId ?? null,
    actorEmail: actor?.email ?? attemptedEmail,
    impersonatorUserId: actor?.impersonator?.userId ?? null,
    impersonatorEmail: actor?.impersonator?.email ?? null,
    companyId: actor?.companyId ?? null,
    action: request.routeOptions.config.operationId ?? 'unknown',
    method: request.method,
    endpoint: request.routeOptions.url ?? request.url.split('?')[0]!,
    statusCode: reply.statusCode,
    ip: request.ip,
    requestId: request.id,
    changes: request.activityChange ?? null,
    createdAt: new Date(),
  });
}
