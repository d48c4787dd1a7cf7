import type { AdminCompany } from '@werkwissen/shared';
import { companyAccess } from '../../access/company.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';
import { type CompanyRecord, companyById, companyList, setSuspension } from './companies.queries.ts';

const present = (c: CompanyRecord): AdminCompany => ({
  ...c,
  lastActivityAt: c.lastActivityAt?.toISOString() ?? null,
  suspendedAt: c.suspendedAt?.toISOString() ?? null,
  createdAt: c.createdAt.toISOString(),
});

/** The companies the actor's Company rules let them read (all, for the operator), searchable, sorted and paged. */
export async function listCompanies(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string; sort?: string; suspended?: 'true' | 'false' },
) {
  // Reads the activity log: this process's entries still waiting for their batch belong in the answer.
  await ctx.activity.flush();
  const { items, total } = await companyList(ctx.db, companyAccess.where(actor, 'read', 'c'), {
    ...query,
    suspended: query.suspended ? query.suspended === 'true' : undefined,
  });
  return { items: items.map(present), total, page: query.page, pageSize: query.pageSize };
}

async function loadCompany(ctx: AppContext, actor: Actor, companyId: string): Promise<AdminCompany> {
  const company = await companyById(ctx.db, companyId, companyAccess.where(actor, 'read', 'c'));
  if (!company) throw notFound();
  return present(company);
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
  await setSuspension(ctx.db, companyId, suspension?.reason ?? null);
  const company = await loadCompany(ctx, actor, companyId);
  const state = (c: AdminCompany) => ({ suspendedAt: c.suspendedAt, suspendedReason: c.suspendedReason });
  return { company, before: state(before), after: state(company) };
}
