import type { DataManagerDetail } from '@werkwissen/shared';
import { and, asc, count, desc, eq, isNull } from 'drizzle-orm';
import { activityLogAccess } from '../../access/activity-log.access.ts';
import { userAccess } from '../../access/user.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import {
  activityLog,
  authSessions,
  companies,
  divisions,
  subscriptions,
  users,
} from '../../db/schema/index.ts';
import { storageUsage } from '../billing/storage-usage.ts';
import { divisionList } from '../divisions/divisions.queries.ts';
import { loadDataManager, presentDataManager } from './data-managers.service.ts';

const RECENT = 10;
const TEAM = 100;

/**
 * One data manager for the back office: their company and plan, storage against the plan's limit, the company's
 * employees, its divisions with file counts (names and sizes only: the operator's rules keep the knowledge itself out of reach),
 * their last sign-ins and, as far as the caller may read the activity log, what they did last.
 */
export async function getDataManagerDetail(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<DataManagerDetail> {
  // Reads the activity log: this process's entries still waiting for their batch belong in the answer.
  await ctx.activity.flush();
  const row = await loadDataManager(ctx.db, actor, id);
  const companyId = row.companyId;
  const [[company], [subscription], storage, [employees], team, divisionRows, signIns, activity] =
    await Promise.all([
      ctx.db.select().from(companies).where(eq(companies.id, companyId)),
      ctx.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.companyId, companyId))
        .orderBy(desc(subscriptions.createdAt))
        .limit(1),
      storageUsage(ctx, companyId),
      ctx.db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.companyId, companyId), eq(users.kind, 'Employee'))),
      ctx.db
        .select({
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          disabledAt: users.disabledAt,
          passwordHash: users.passwordHash,
        })
        .from(users)
        .where(
          and(eq(users.companyId, companyId), eq(users.kind, 'Employee'), userAccess.where(actor, 'read')),
        )
        .orderBy(asc(users.lastName), asc(users.firstName))
        .limit(TEAM),
      divisionList(ctx.db, eq(divisions.companyId, companyId)),
      ctx.db
        .select({ at: authSessions.createdAt, ip: authSessions.ip, userAgent: authSessions.userAgent })
        .from(authSessions)
        .where(and(eq(authSessions.userId, id), isNull(authSessions.impersonatorSessionId)))
        .orderBy(desc(authSessions.createdAt))
        .limit(RECENT),
      ctx.db
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.actorUserId, id), activityLogAccess.where(actor, 'read')))
        .orderBy(desc(activityLog.createdAt))
        .limit(RECENT),
    ]);
  return {
    ...presentDataManager(row),
    company: {
      id: company!.id,
      name: company!.name,
      suspendedAt: company!.suspendedAt?.toISOString() ?? null,
      suspendedReason: company!.suspendedReason,
      createdAt: company!.createdAt.toISOString(),
    },
    subscription: subscription
      ? { plan: subscription.plan, status: subscription.status, endsAt: subscription.endsAt.toISOString() }
      : null,
    storage: { usedBytes: storage.usedBytes, limitBytes: storage.limitBytes },
    employees: employees?.n ?? 0,
    team: team.map((e) => ({
      id: e.id,
      email: e.email,
      firstName: e.firstName,
      lastName: e.lastName,
      status: e.disabledAt ? 'deactivated' : e.passwordHash ? 'active' : 'invited',
    })),
    divisions: divisionRows.map((d) => ({ id: d.id, name: d.name, files: d.fileCount, bytes: d.sizeBytes })),
    recentSignIns: signIns.map((s) => ({ at: s.at.toISOString(), ip: s.ip, userAgent: s.userAgent })),
    recentActivity: activity.map((a) => ({
      id: a.id,
      action: a.action,
      method: a.method,
      endpoint: a.endpoint,
      statusCode: a.statusCode,
      createdAt: a.createdAt.toISOString(),
    })),
  };
}
