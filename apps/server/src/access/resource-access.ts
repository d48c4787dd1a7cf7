import {
  type Action,
  type CONDITION_FIELDS,
  conditionTree,
  type ResourceSubject,
  subjectOf,
} from '@werkwissen/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../core/actor.ts';
import { AppError, notFound } from '../core/app-error.ts';
import type { DbOrTx } from '../db/database.ts';
import { conditionSql, type FieldSql } from './rule-sql.ts';

interface ResourceDefinition<S extends ResourceSubject> {
  subject: S;
  /** The table, also the default alias of its rows in `where`. */
  table: string;
  /** How each attribute a rule may name (CONDITION_FIELDS) reads in SQL. */
  fields: Record<(typeof CONDITION_FIELDS)[S][number], FieldSql>;
  /** The attribute naming the row's company, for company isolation; null for rows of no company. */
  company: (typeof CONDITION_FIELDS)[S][number] | null;
  /** What every action needs besides the rules, e.g. a file needs a division the reader may read. */
  within?: (row: SQL, actor: Actor) => SQL;
}

/** One resource's access: the same stored rules as a SQL condition for queries, and as a check of one object. */
export interface ResourceAccess<S extends ResourceSubject> {
  readonly subject: S;
  /**
   * The rows (of `alias`, by default the table itself) the actor may `action`: their rules in SQL, within their
   * company. A caller of no company (the operator) is bound by their rules alone.
   */
  where(actor: Actor, action: Action, alias?: string): SQL;
  /**
   * Company isolation alone, for views that an area permission guards instead of the resource's rules (the back
   * office's processing table): the caller's company's rows, every row for a caller of no company.
   */
  isolated(actor: Actor, alias?: string): SQL;
  /** Whether the actor may `action` a resource with these attributes (one not stored yet, like a new chat). */
  can(
    actor: Actor,
    action: Action,
    attributes: Partial<Record<(typeof CONDITION_FIELDS)[S][number], unknown>>,
  ): boolean;
  /** FORBIDDEN unless `can`. */
  assertCan(
    actor: Actor,
    action: Action,
    attributes: Partial<Record<(typeof CONDITION_FIELDS)[S][number], unknown>>,
  ): void;
  /**
   * Checks one stored resource in SQL: not found (404) when the actor may not read it, FORBIDDEN (403) when they
   * may read but not `action` it.
   */
  authorize(db: DbOrTx, actor: Actor, action: Action, id: string): Promise<void>;
}

export function defineAccess<S extends ResourceSubject>(
  definition: ResourceDefinition<S>,
): ResourceAccess<S> {
  const fields = definition.fields as Record<string, FieldSql>;
  const companyField = definition.company ? fields[definition.company] : null;
  if (companyField && !('value' in companyField))
    throw new Error(`${definition.subject}: company is no value`);

  const access: ResourceAccess<S> = {
    subject: definition.subject,
    where(actor, action, alias = definition.table) {
      const row = sql`${sql.identifier(alias)}`;
      const tree = conditionTree(actor.ability, action, definition.subject);
      if (!tree) return sql`false`;
      // Company isolation is not a rule: nothing a role says takes a company user out of their company.
      const parts = [access.isolated(actor, alias), conditionSql(tree, fields, row, actor)];
      if (definition.within) parts.push(definition.within(row, actor));
      return sql`(${sql.join(parts, sql` and `)})`;
    },
    isolated(actor, alias = definition.table) {
      if (!companyField || !('value' in companyField) || !actor.companyId) return sql`true`;
      return sql`${companyField.value(sql`${sql.identifier(alias)}`)} = ${actor.companyId}`;
    },
    can(actor, action, attributes) {
      const company = definition.company ? (attributes as Record<string, unknown>)[definition.company] : null;
      if (definition.company && actor.companyId && company !== actor.companyId) return false;
      return actor.ability.can(action, subjectOf(definition.subject, attributes));
    },
    assertCan(actor, action, attributes) {
      if (!access.can(actor, action, attributes)) throw new AppError('FORBIDDEN');
    },
    async authorize(db, actor, action, id) {
      const row = sql.identifier(definition.table);
      const { rows } = await db.execute<{
        allowed: boolean;
      }>(sql`select ${access.where(actor, action)} as allowed
        from ${row} where ${row}.id = ${id} and ${access.where(actor, 'read')}`);
      if (!rows[0]) throw notFound();
      if (!rows[0].allowed) throw new AppError('FORBIDDEN');
    },
  };
  return access;
}

/**
 * The company a route that works within the caller's own company acts on (new divisions, chats and tags, the
 * company's providers, search). A caller who belongs to no company (the operator) has none: FORBIDDEN.
 */
export function homeCompany(actor: Actor): string {
  if (!actor.companyId) throw new AppError('FORBIDDEN');
  return actor.companyId;
}

/**
 * The platform's own things (roles, staff, every company's plan and payments, the plan catalogue's back office):
 * only a caller of no company (the operator) reaches them, then as their rules say. A company user is refused
 * (FORBIDDEN) whatever their rules grant, as company isolation keeps them out of everything beyond their company.
 */
export function assertPlatformCaller(actor: Actor): void {
  if (actor.companyId) throw new AppError('FORBIDDEN');
}
