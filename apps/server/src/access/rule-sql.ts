import type { ConditionNode } from '@werkwissen/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../core/actor.ts';

/**
 * How a rule attribute reads in SQL, for a row of the resource (`row` is its table alias):
 * - `value`: a value of the row (a column or an expression), compared as text;
 * - `members`: a set the row relates to (a division's employees), true when it holds any of the given values;
 * - `holds`: a yes/no fact about the row for this reader (a chat whose every division they may read).
 */
export type FieldSql =
  | { value: (row: SQL) => SQL }
  | { members: (row: SQL, values: string[]) => SQL }
  | { holds: (row: SQL, actor: Actor) => SQL };

export const column = (name: string): FieldSql => ({ value: (row) => sql`${row}.${sql.identifier(name)}` });

const TRUE = sql`true`;
const FALSE = sql`false`;

const all = (parts: SQL[]) => (parts.length === 0 ? TRUE : sql`(${sql.join(parts, sql` and `)})`);
const any = (parts: SQL[]) => (parts.length === 0 ? FALSE : sql`(${sql.join(parts, sql` or `)})`);
const not = (part: SQL) => sql`(not ${part})`;

/** Our fault, not the caller's: logged with the request id, answered as INTERNAL. */
const unreadable = (reason: string) => new Error(`a role rule the server cannot read: ${reason}`);

/** Whether the field is one of the values, with CASL's reading of null ("no value"). */
function isOneOf(field: FieldSql, row: SQL, actor: Actor, values: unknown[]): SQL {
  if ('holds' in field) {
    const fact = field.holds(row, actor);
    return any([values.includes(true) ? fact : FALSE, values.includes(false) ? not(fact) : FALSE]);
  }
  const texts = values.filter((v) => v !== null && v !== undefined).map(String);
  if ('members' in field) return texts.length === 0 ? FALSE : field.members(row, texts);
  const value = field.value(row);
  const listed =
    texts.length === 0
      ? FALSE
      : sql`coalesce(${value}::text in (${sql.join(
          texts.map((t) => sql`${t}`),
          sql`, `,
        )}), false)`;
  return values.includes(null) ? any([listed, sql`${value} is null`]) : listed;
}

function fieldSql(
  node: { operator: string; field: string; value: unknown },
  fields: Fields,
  row: SQL,
  actor: Actor,
) {
  const field = fields[node.field];
  if (!field) throw unreadable(`unknown attribute ${node.field}`);
  const list = (v: unknown) => {
    if (!Array.isArray(v)) throw unreadable(`${node.operator} on ${node.field} needs a list`);
    return v;
  };
  switch (node.operator) {
    case 'eq':
      return isOneOf(field, row, actor, [node.value]);
    case 'ne':
      return not(isOneOf(field, row, actor, [node.value]));
    case 'in':
      return isOneOf(field, row, actor, list(node.value));
    case 'nin':
      return not(isOneOf(field, row, actor, list(node.value)));
    default:
      throw unreadable(`operator ${node.operator} on ${node.field}`);
  }
}

export type Fields = Record<string, FieldSql>;

/**
 * Translates CASL's condition tree of an actor's rules (conditionTree) into a SQL condition on a row: the same
 * rules the browser receives decide what a query returns. Unknown attributes and operators are refused (roles with
 * them are never loaded, see ability-cache.ts), so a rule is never half applied.
 */
export function conditionSql(node: ConditionNode, fields: Fields, row: SQL, actor: Actor): SQL {
  if ('field' in node) return fieldSql(node, fields, row, actor);
  const parts = node.value.map((child) => conditionSql(child, fields, row, actor));
  switch (node.operator) {
    case 'and':
      return all(parts);
    case 'or':
      return any(parts);
    case 'not':
      return not(all(parts));
    case 'nor':
      return not(any(parts));
    default:
      throw unreadable(`operator ${(node as { operator: string }).operator}`);
  }
}
