import { sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { type Actor, requireCompany } from '../auth/actor.ts';

/** What a search may see: one company, and within it all divisions or only the listed ones. */
export interface SearchScope {
  companyId: string;
  /** null: every division of the company. */
  divisionIds: string[] | null;
}

/** The published files in a scope (filtered in SQL by company and divisions). */
export function scopeFilesSql(scope: SearchScope) {
  return sql`
    select f.id, f.active_generation, f.passage_count, f.token_count from files f
    where f.company_id = ${scope.companyId} and f.active_generation is not null
      ${scope.divisionIds ? sql`and f.division_id = any(${sql.param(scope.divisionIds)}::uuid[])` : sql``}`;
}

/**
 * The caller's scope: a data manager sees the whole company, an employee only the divisions assigned to them; a
 * division filter outside that answers 404.
 */
export async function scopeOf(ctx: AppContext, actor: Actor, divisionId?: string): Promise<SearchScope> {
  const companyId = requireCompany(actor);
  if (actor.kind === 'Employee') {
    const { rows } = await ctx.db.execute<{ division_id: string }>(
      sql`select ed.division_id from employee_divisions ed where ed.user_id = ${actor.userId}`,
    );
    const assigned = rows.map((r) => r.division_id);
    if (divisionId && !assigned.includes(divisionId)) throw notFound();
    return { companyId, divisionIds: divisionId ? [divisionId] : assigned };
  }
  if (actor.kind !== 'DataManager') throw new AppError('FORBIDDEN');
  if (divisionId) {
    const { rows } = await ctx.db.execute(
      sql`select 1 from divisions where id = ${divisionId} and company_id = ${companyId}`,
    );
    if (rows.length === 0) throw notFound();
    return { companyId, divisionIds: [divisionId] };
  }
  return { companyId, divisionIds: null };
}
