import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { divisionAccess } from '../../access/division.access.ts';
import { fileAccess } from '../../access/file.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/app-error.ts';

/** What a search may see: one company, within it all divisions or only the listed ones, and the files allowed. */
export interface SearchScope {
  companyId: string;
  /** null: every division of the company. */
  divisionIds: string[] | null;
  /** The files the searcher may read, as a condition on files `f` (their File and Division rules); none: all. */
  files?: SQL;
}

/** The published files in a scope (filtered in SQL by company, divisions and the searcher's rules). */
export function scopeFilesSql(scope: SearchScope) {
  return sql`
    select f.id, f.active_generation, f.passage_count, f.token_count, f.language from files f
    where f.company_id = ${scope.companyId} and f.active_generation is not null
      ${scope.divisionIds ? sql`and f.division_id = any(${sql.param(scope.divisionIds)}::uuid[])` : sql``}
      ${scope.files ? sql`and ${scope.files}` : sql``}`;
}

const dialect = new PgDialect();

/** A scope as a key: the statement text and parameters of its files (the same key, the same files). */
export function scopeKey(scope: SearchScope): string {
  const { sql: text, params } = dialect.sqlToQuery(scopeFilesSql(scope));
  return JSON.stringify([text, params]);
}

/**
 * The caller's scope in their company: the files their rules let them read (by default a data manager every file,
 * an employee those of the divisions assigned to them); a division filter they may not read answers 404.
 */
export async function scopeOf(ctx: AppContext, actor: Actor, divisionId?: string): Promise<SearchScope> {
  const companyId = homeCompany(actor);
  if (divisionId) {
    const { rows } = await ctx.db.execute(
      sql`select 1 from divisions where id = ${divisionId} and ${divisionAccess.where(actor, 'read')}`,
    );
    if (rows.length === 0) throw notFound();
  }
  return {
    companyId,
    divisionIds: divisionId ? [divisionId] : null,
    files: fileAccess.where(actor, 'read', 'f'),
  };
}
