import { and, count, desc, ilike, or } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { activityLogAccess } from '../../access/activity-log.access.ts';
import type { AppContext } from '../../app-context.ts';
import { containsPattern } from '../../db/like.ts';
import { activityLog } from '../../db/schema/index.ts';
import type { Actor } from '../auth/actor.ts';

const SIGN_IN_EVENTS = new Set(['login', 'logout', 'refresh']);

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

/** Whether a finished request belongs in the activity log: every mutating request and every sign-in event. */
export function isLoggedActivity(request: FastifyRequest): boolean {
  const operationId = request.routeOptions.config.operationId;
  if (!operationId) return false;
  return !['GET', 'HEAD', 'OPTIONS'].includes(request.method) || SIGN_IN_EVENTS.has(operationId);
}

/** Records one request after its answer is sent, through the batching writer (a failure is logged, never surfaced). */
export function recordActivity(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): void {
  const actor = request.actor;
  const body = request.body as { email?: unknown } | undefined;
  const attemptedEmail = typeof body?.email === 'string' ? body.email.toLowerCase().slice(0, 254) : null;
  ctx.activity.add({
    actorUserId: actor?.userId ?? null,
    actorEmail: actor?.email ?? attemptedEmail,
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

/** The activity log entries the actor's ActivityLog rules let them read (all, for the operator), newest first. */
export async function listActivity(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string },
) {
  // This process's entries still waiting for their batch belong in the answer.
  await ctx.activity.flush();
  const { page, pageSize } = query;
  const like = query.q ? containsPattern(query.q) : undefined;
  const where = and(
    activityLogAccess.where(actor, 'read'),
    like
      ? or(
          ilike(activityLog.action, like),
          ilike(activityLog.endpoint, like),
          ilike(activityLog.actorEmail, like),
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(activityLog)
      .where(where)
      .orderBy(desc(activityLog.createdAt))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    ctx.db.select({ n: count() }).from(activityLog).where(where),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      action: r.action,
      method: r.method,
      endpoint: r.endpoint,
      statusCode: r.statusCode,
      actorUserId: r.actorUserId,
      actorEmail: r.actorEmail,
      companyId: r.companyId,
      ip: r.ip,
      changes: r.changes ?? null,
      createdAt: r.createdAt.toISOString(),
    })),
    total: total?.n ?? 0,
    page,
    pageSize,
  };
}
