import type { AppAbility } from './ability.ts';
import { RULE_PLACEHOLDERS } from './ability.ts';
import type { AbilityRule } from './ability-rule.ts';
import { CONDITION_FIELDS, type ResourceSubject } from './conditions.ts';
import { ACTIONS, type Action, SUBJECTS, type Subject, type UserKind } from './subjects.ts';

/**
 * The roles editor's permission matrix: subjects x actions, each cell as the role's rules write it. A cell is
 * `can` when a rule names that action on that subject, `cannot` when an inverted rule does (both: `cannot`, which
 * CASL lets win), and `conditional` when every `can` rule naming it carries conditions (the company roles'
 * `companyId`, `userId`, `kind`). Editing a cell rewrites only that action on that subject: conditions, fields and
 * reasons of every rule stay, and a new right joins the conditions the role already uses for the subject.
 */
export type CellState = 'none' | 'can' | 'cannot';

export interface MatrixCell {
  state: CellState;
  /** Only conditional `can` rules grant it (for example "within their own company"). */
  conditional: boolean;
}

/** The kinds whose seeded role holds company users: their rights stay within the holder's company. */
export const COMPANY_ROLE_KINDS: readonly UserKind[] = ['DataManager', 'Employee', 'PublicUser'];

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const one = <T>(values: T[]): T | T[] => (values.length === 1 ? values[0]! : values);
const names = (rule: AbilityRule, subject: Subject, action: Action) =>
  list(rule.subject).includes(subject) && list(rule.action).includes(action);

export function cellOf(rules: AbilityRule[], subject: Subject, action: Action): MatrixCell {
  const naming = rules.filter((r) => names(r, subject, action));
  if (naming.some((r) => r.inverted)) return { state: 'cannot', conditional: false };
  if (naming.length === 0) return { state: 'none', conditional: false };
  return { state: 'can', conditional: naming.every((r) => r.conditions) };
}

/** The rules without `action` on `subject`; a rule naming more keeps the rest. */
function without(rules: AbilityRule[], subject: Subject, action: Action): AbilityRule[] {
  return rules.flatMap((rule) => {
    if (!names(rule, subject, action)) return [rule];
    const others = list(rule.subject).filter((s) => s !== subject);
    const rest = list(rule.action).filter((a) => a !== action);
    return [
      ...(others.length > 0 ? [{ ...rule, subject: one(others) }] : []),
      ...(rest.length > 0 ? [{ ...rule, subject, action: one(rest) }] : []),
    ];
  });
}

/** The condition naming the holder's own company, for a resource that has one. */
function ownCompany(subject: Subject): Record<string, string> | undefined {
  const fields: readonly string[] | undefined = CONDITION_FIELDS[subject as ResourceSubject];
  if (!fields) return undefined;
  if (fields.includes('companyId')) return { companyId: RULE_PLACEHOLDERS.companyId };
  if (subject === 'Company') return { id: RULE_PLACEHOLDERS.companyId };
  return undefined;
}

/**
 * The rules with one cell set. `companyRole`: the role of company users, whose new rights on a company's resource
 * are bound to the holder's own company when the role has no rule on that subject yet.
 */
export function setCell(
  rules: AbilityRule[],
  subject: Subject,
  action: Action,
  state: CellState,
  options: { companyRole: boolean },
): AbilityRule[] {
  const rest = without(rules, subject, action);
  if (state === 'none') return rest;
  if (state === 'cannot') return [...rest, { action, subject, inverted: true }];
  // `can`: join the first rule the role has on this subject alone, or copy the conditions of one naming it.
  const model = rest.find((r) => !r.inverted && list(r.subject).includes(subject));
  if (model && list(model.subject).length === 1 && !model.fields) {
    return rest.map((r) => (r === model ? { ...r, action: one([...list(r.action), action]) } : r));
  }
  const conditions = model ? model.conditions : options.companyRole ? ownCompany(subject) : undefined;
  const added: AbilityRule = { action, subject, ...(conditions ? { conditions } : {}) };
  // Before the first inverted rule: a `cannot` overrides the `can` rules before it.
  const firstInverted = rest.findIndex((r) => r.inverted);
  if (firstInverted < 0) return [...rest, added];
  return [...rest.slice(0, firstInverted), added, ...rest.slice(firstInverted)];
}

/**
 * The checks a right answers: `manage` is every action (and `manage` itself), `all` every subject (and `all` itself,
 * which CASL also matches for subjects not listed yet).
 */
export function coveredChecks(action: Action, subject: Subject): Array<[Action, Subject]> {
  const actions = action === 'manage' ? ACTIONS : [action];
  const subjects = subject === 'all' ? SUBJECTS : [subject];
  return actions.flatMap((a) => subjects.map((s): [Action, Subject] => [a, s]));
}

/**
 * Whether an ability answers one check (`can(action, subject)`) for every resource: CASL's rules for it, most
 * important first, reach an unconditional `can` before any `cannot`.
 */
export function holdsCheck(ability: Pick<AppAbility, 'rulesFor'>, action: Action, subject: Subject): boolean {
  for (const rule of ability.rulesFor(action, subject)) {
    // Any `cannot` in the way withholds part of it.
    if (rule.inverted) return false;
    if (!rule.conditions && !rule.fields) return true;
  }
  return false;
}

/**
 * Whether an ability holds a right all over: for every action and subject the right covers (`manage all` covers
 * the companies' knowledge too), an unconditional `can` comes before any `cannot`. Nobody grants a right they do not
 * hold (the server refuses it; the matrix does not offer it).
 */
export function holdsRight(ability: Pick<AppAbility, 'rulesFor'>, action: Action, subject: Subject): boolean {
  return coveredChecks(action, subject).every(([a, s]) => holdsCheck(ability, a, s));
}
