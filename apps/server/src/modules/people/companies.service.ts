import type { AdminCompany } from '@werkwissen/shared';
import { type SQL, sql } from 'drizzle-orm';
import { companyAccess } from '../../access/company.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';
import { containsPattern } from '../../db/like.ts';

interface CompanyRow extends Record<string, unknown> {
  id: string;
  name: string | null;
  data_manager_email: string | null;
  plan: AdminCompany['plan'];
  users: number;
  storage_bytes: string | number;
  last_activity_at: Date | string | null;
  suspended_at: Date | string | null;
  suspended_reason: string | null;
  created_at: Date | string;
}

const iso = (v: Date | string | null) => (v ? new Date(v).toISOString() : null);

const present = (r: CompanyRow): AdminCompany => ({
  id: r.id,
  name: r.name,
  dataManagerEmail: r.data_manager_email,
  plan: r.plan ?? null,
  users: r.users,
  storageBytes: Number(r.storage_bytes),
  lastActivityAt: iso(r.last_activity_at),
  suspendedAt: iso(r.suspended_at),
  suspendedReason: r.suspended_reason,
  createdAt: new Date(r.created_at).toISOString(),
});

const lastActivity = sql`(select max(a.created_at) from activity_log a where a.company_id = c.id)`;

const columns = sql`c.id, c.name, c.suspended_at, c.suspended_reason, c.created_at,
  (select u.email from users u where u.company_id = c.id and u.kind = 'DataManager'
    order by u.created_at limit 1) as data_manager_email,
  (select s.plan from subscriptions s where s.company_id = c.id order by s.created_at desc limit 1) as plan,
  (select count(*)::int from users u where u.company_id = c.id) as users,
  (select coalesce(sum(f.size_bytes), 0)::bigint from files f where f.company_id = c.id) as storage_bytes,
  ${lastActivity} as last_activity_at`;

const ORDER: Record<string, SQL> = {
  name: sql`lower(c.name) asc nulls last`,
  '-name': sql`lower(c.name) desc nulls last`,
  createdAt: sql`c.created_at asc`,
  '-createdAt': sql`c.created_at desc`,
  lastActivityAt: sql`${lastActivity} asc nulls first`,
  '-lastActivityAt': sql`${lastActivity} desc nulls last`,
};

/** The companies the actor's Company rules let them read (all, for the operator), searchable, sorted and paged. */
export async function listCompanies(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; sort?: string; suspended?: 'true' | 'false' },
) {
  // Reads the activity log: this process's entries still waiting for their batch belong in the answer.
  await ctx.activity.flush();
  const like = query.q ? containsPattern(query.q) : null;
  const where = sql.join(
    [
      companyAccess.where(actor, 'read', 'c'),
      like
        ? sql`(c.name ilike ${like} or exists (select 1 from users u where u.company_id = c.id
            and u.kind = 'DataManager' and u.email ilike ${like}))`
        : null,
      query.suspended ? sql`(c.suspended_at is not null) = ${query.suspended === 'true'}` : null,
    ].filter((part): part is SQL => part !== null),
    sql` and `,
  );
  const order = ORDER[query.sort ?? '-createdAt'] ?? ORDER['-createdAt']!;
  const [items, total] = await Promise.all([
    ctx.db.execute<CompanyRow>(sql`select ${columns} from companies c where ${where}
      order by ${order}, c.id limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
    ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from companies c where ${where}`),
  ]);
  return {
    items: items.rows.map(present),
    total: total.rows[0]?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

async function loadCompany(ctx: AppContext, actor: Actor, companyId: string): Promise<AdminCompany> {
  const { rows } = await ctx.db.execute<CompanyRow>(sql`select ${columns} from companies c
    where c.id = ${companyId} and ${companyAccess.where(actor, 'read', 'c')}`);
  if (!rows[0]) throw notFound();
  return present(rows[0]);
}

/**
 * Suspends a company (with the operator's reason) or resumes it. While suspended, its users cannot sign in and
 * their sessions and API keys are refused (`actor.ts`), and its public chats answer PUBLIC_CHAT_SUSPENDED; nothing
 * is deleted, so resuming restores all. Answers the change's before and after for the activity log.
 */
export async function setCompanySuspended(
  ctx: AppContext,
  actor: Actor,
  companyId: string,
  suspension: { reason: string } | null,
): Promise<{ company: AdminCompany; before: unknown; after: unknown }> {
  await companyAccess.authorize(ctx.db, actor, 'update', companyId);
  const before = await loadCompany(ctx, actor, companyId);
  await ctx.db.execute(
    suspension
      ? sql`update companies set suspended_at = coalesce(suspended_at, now()),
          suspended_reason = ${suspension.reason}, updated_at = now() where id = ${companyId}`
      : sql`update companies set suspended_at = null, suspended_reason = null, updated_at = now()
          where id = ${companyId}`,
  );
  const company = await loadCompany(ctx, actor, companyId);
  const state = (c: AdminCompany) => ({ suspendedAt: c.suspendedAt, suspendedReason: c.suspendedReason });
  return { company, before: state(before), after: state(company) };
}
