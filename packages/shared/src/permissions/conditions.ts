import { rulesToAST } from '@casl/ability/extra';
import type { AppAbility } from './ability.ts';
import type { AbilityRule } from './ability-rule.ts';
import type { Action, Subject } from './subjects.ts';

/**
 * The attributes a rule's conditions may name, per resource. The server reads each of them in SQL (its access
 * modules), so a rule narrows lists and single resources alike; a name not listed here makes the rule invalid.
 * Relations are named like attributes: `assignedTo` is the set of employees a division is assigned to,
 * `divisionsReadable` whether the reader may read every division a chat draws on.
 */
export const CONDITION_FIELDS = {
  Company: ['id'],
  User: ['id', 'companyId', 'kind'],
  ApiKey: ['id', 'companyId', 'userId'],
  ActivityLog: ['companyId', 'actorUserId'],
  Email: ['companyId', 'userId'],
  Division: ['id', 'companyId', 'name', 'assignedTo'],
  File: ['id', 'companyId', 'divisionId', 'kind'],
  Chat: ['id', 'companyId', 'userId', 'visibility', 'divisionsReadable'],
  Feedback: ['companyId', 'origin'],
  Tag: ['id', 'companyId'],
  Subscription: ['companyId'],
  Invoice: ['companyId'],
  Customer: ['id', 'companyId'],
  SalesDocument: ['id', 'companyId'],
  EmailSetting: ['id', 'companyId', 'divisionId'],
  Connector: ['id', 'companyId', 'divisionId'],
} as const satisfies Partial<Record<Subject, readonly string[]>>;

export type ResourceSubject = keyof typeof CONDITION_FIELDS;

/** The operators a condition may use: plain equality, `$eq`, `$ne`, `$in` and `$nin`. */
const OPERATORS = new Set(['$eq', '$ne', '$in', '$nin']);

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

function valueProblem(field: string, value: unknown): string | null {
  if (isScalar(value)) return null;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return `${field}: not a value or operator`;
  for (const [op, operand] of Object.entries(value)) {
    if (!OPERATORS.has(op)) return `${field}: operator ${op} is not supported`;
    const list = op === '$in' || op === '$nin';
    if (list ? !Array.isArray(operand) || !operand.every(isScalar) : !isScalar(operand)) {
      return `${field}: ${op} needs ${list ? 'a list of values' : 'a value'}`;
    }
  }
  return null;
}

/**
 * What is wrong with a rule's conditions (empty when nothing): conditions only on resources, on the attributes of
 * CONDITION_FIELDS, with supported operators. A rule the server cannot read in SQL must never be half applied.
 */
export function conditionProblems(rule: AbilityRule): string[] {
  if (!rule.conditions) return [];
  const subjects = Array.isArray(rule.subject) ? rule.subject : [rule.subject];
  const problems: string[] = [];
  for (const subject of subjects) {
    const fields: readonly string[] | undefined = CONDITION_FIELDS[subject as ResourceSubject];
    if (!fields) {
      problems.push(`${subject}: conditions apply to resources only`);
      continue;
    }
    for (const [field, value] of Object.entries(rule.conditions)) {
      if (!fields.includes(field)) problems.push(`${subject}: unknown attribute ${field}`);
      const problem = valueProblem(field, value);
      if (problem) problems.push(`${subject}: ${problem}`);
    }
  }
  return problems;
}

/** A node of the condition tree CASL builds from an actor's rules for one action on one subject. */
export type ConditionNode =
  | { operator: 'and' | 'or' | 'not' | 'nor'; value: ConditionNode[] }
  | { operator: string; field: string; value: unknown };

/**
 * The actor's rules for an action on a subject as one condition tree (inverted rules become `not` branches), for
 * translation into a query; null when no rule allows the action at all, an empty `and` when one allows it always.
 */
export function conditionTree(ability: AppAbility, action: Action, subject: Subject): ConditionNode | null {
  return rulesToAST(ability, action, subject) as ConditionNode | null;
}
