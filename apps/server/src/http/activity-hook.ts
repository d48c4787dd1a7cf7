import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { RecentReads } from './recent-reads.ts';

const SIGN_IN_EVENTS = new Set(['login', 'logout', 'refresh', 'verifySecondFactor', 'oidcCallback']);
/** Reads that are logged like changes: what they showed is others' business (a mail's full text). */
const LOGGED_READS = new Set(['getEmail']);
/** Reads logged every time: the doors other tools use (what an API key listed is its owner's to review). */
const ALWAYS_LOGGED = new Set(['listOpenAiModels']);

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request changed, before and after, for its activity entry (platform settings and templates). */
    activityChange?: { before: unknown; after: unknown };
    /** What the request did, where its route's operation does not tell (the MCP server's tool called). */
    activityAction?: string;
  }
}

/**
 * Attaches what a request changed to its activity entry. Route handlers call it with the change their service
 * returned: services never see the request, and the entry is written once the answer is sent.
 */
export function noteChange(request: FastifyRequest, change: { before: unknown; after: unknown }): void {
  request.activityChange = change;
}

/** Names what a request did in its activity entry, in place of its route's operation (`mcp:search`). */
export function noteAction(request: FastifyRequest, action: string): void {
  request.activityAction = action;
}

const recentReads = new RecentReads();

/** The address a request read, without its query. */
const pathOf = (request: FastifyRequest) => request.url.split('?')[0]!;

/**
 * A read that belongs in the log: one of LOGGED_READS, or, while an operator views the product as someone, a read of
 * a resource (a route whose permission names a subject, so not the shell's own `me` or settings). Only the first of
 * its address by the session within READ_REPEAT_MINUTES: a page that polls a mail's status or reloads a list is
 * logged once.
 */
function isLoggedRead(request: FastifyRequest, operationId: string): boolean {
  const actor = request.actor;
  if (request.method !== 'GET' || !actor) return false;
  const impersonated =
    Boolean(actor.impersonator) && typeof request.routeOptions.config.permission === 'object';
  if (!LOGGED_READS.has(operationId) && !impersonated) return false;
  return recentReads.firstOf(actor.sessionId ?? `user:${actor.userId}`, pathOf(request));
}

/**
 * Whether a finished request belongs in the activity log: every mutating request and every sign-in event, and the
 * reads of `isLoggedRead` (a mail's text; what an operator opens while viewing the product as someone) and of
 * ALWAYS_LOGGED.
 */
export function isLoggedActivity(request: FastifyRequest): boolean {
  const operationId = request.routeOptions.config.operationId;
  if (!operationId) return false;
  if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method) || SIGN_IN_EVENTS.has(operationId)) return true;
  if (ALWAYS_LOGGED.has(operationId)) return true;
  return isLoggedRead(request, operationId);
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
    action: request.activityAction ?? request.routeOptions.config.operationId ?? 'unknown',
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
