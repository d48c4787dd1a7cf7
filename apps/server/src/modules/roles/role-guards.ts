import {
  type AbilityRule,
  ACTIONS,
  type Action,
  type AppAbility,
  buildAbility,
  conditionProblems,
  holdsCheck,
  interpolateRules,
  SUBJECTS,
  type Subject,
  subjectOf,
  type UserKind,
} from '@werkwissen/shared';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import type { DbOrTx } from '../../db/database.ts';
import { activeHolderOfKindExists, holdsAnyRole, rulesHeldByActiveOperators } from './roles.queries.ts';

/** The kind of the role that must keep an active holder. */
const ADMINISTRATOR: UserKind = 'Administrator';

/** A right to check: one action on one subject, with the conditions and fields of the rule that grants it. */
interface Grant {
  action: Action;
  subject: Subject;
  conditions?: Record<string, unknown>;
  fields?: string | string[];
}

/** Every check CASL can be asked: each action (`manage` too) on each subject (`all` too). */
const CHECKS = ACTIONS.flatMap((action) => SUBJECTS.map((subject) => ({ action, subject })));

/** JSON with object keys in order: the database (jsonb) gives stored conditions back in an order of its own. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, canonical(v)]),
        )
      : value;

type DecidingRule = ReturnType<AppAbility['rulesFor']>[number];
/** What a rule does to one check, whichever action and subject lists it was written with. */
const effectOf = (rule: DecidingRule) =>
  JSON.stringify(canonical([rule.inverted, rule.conditions ?? null, rule.fields ?? null]));

/**
 * The `can` rules that decide a check, each (the first of equal ones, most important first) with the `cannot` rules
 * above it. Rules below an unconditional `cannot` never decide anything and are left out.
 */
function reachOf(ability: AppAbility, action: Action, subject: Subject) {
  const reach = new Map<string, { rule: DecidingRule; cannots: Set<string> }>();
  const cannots = new Set<string>();
  for (const rule of ability.rulesFor(action, subject)) {
    const effect = effectOf(rule);
    if (rule.inverted) {
      cannots.add(effect);
      if (!rule.conditions && !rule.fields) break;
    } else if (!reach.has(effect)) {
      reach.set(effect, { rule, cannots: new Set(cannots) });
    }
  }
  return reach;
}

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/**
 * Whether the caller answers one check themselves: for every resource, or, for a right bound to plain values
 * (`{ companyId: X }`), for the resource those values describe. Conservative: a condition of the caller's on any
 * other attribute fails.
 */
function holds(actor: Actor, grant: Grant): boolean {
  if (holdsCheck(actor.ability, grant.action, grant.subject)) return true;
  if (grant.fields || !grant.conditions || grant.subject === 'all') return false;
  const [bound] = interpolateRules(
    [{ action: grant.action, subject: grant.subject, conditions: grant.conditions }],
    {
      user: { id: actor.userId, companyId: actor.companyId },
    },
  );
  const values = bound!.conditions!;
  if (!Object.values(values).every(isScalar)) return false;
  return actor.ability.can(grant.action, subjectOf(grant.subject, values));
}

/** ROLE_RULES_INVALID unless the server can read every rule's conditions in SQL. */
export function assertReadableRules(rules: AbilityRule[]): void {
  const problems = rules.flatMap(conditionProblems);
  if (problems.length > 0) throw new AppError('ROLE_RULES_INVALID', { problems });
}

/**
 * ROLE_GRANT_EXCEEDS_OWN when `after` allows anything `before` did not and the caller does not hold it. Every check
 * CASL can be asked is compared (`manage` covers every action, `all` every subject, so `read all` asks about
 * chats and files too): a `can` rule that decides a check after the change and did not before, or did with a
 * `cannot` above it that is now gone or below it (CASL lets the later rule win), must be held by the caller. Taking
 * rights away (a rule removed, a `cannot` added) needs nothing.
 */
export function assertGrantsHeld(actor: Actor, before: AbilityRule[], after: AbilityRule[]): void {
  const was = buildAbility(before);
  const will = buildAbility(after);
  const beyond = new Set<string>();
  for (const { action, subject } of CHECKS) {
    const had = reachOf(was, action, subject);
    for (const [effect, { rule, cannots }] of reachOf(will, action, subject)) {
      const earlier = had.get(effect);
      const widened = !earlier || [...earlier.cannots].some((cannot) => !cannots.has(cannot));
      if (!widened) continue;
      const grant: Grant = {
        action,
        subject,
        ...(rule.conditions ? { conditions: rule.conditions as Record<string, unknown> } : {}),
        ...(rule.fields ? { fields: rule.fields } : {}),
      };
      if (!holds(actor, grant)) beyond.add(`${action} ${subject}`);
    }
  }
  if (beyond.size > 0) throw new AppError('ROLE_GRANT_EXCEEDS_OWN', { rights: [...beyond] });
}

/** ROLE_OWN when the caller holds one of these roles. */
export async function assertNotOwnRole(db: DbOrTx, actor: Actor, roleIds: string[]): Promise<void> {
  if (await holdsAnyRole(db, actor.userId, roleIds)) throw new AppError('ROLE_OWN');
}

/**
 * Run inside the transaction of a change, after it: LAST_ADMINISTRATOR when no active user (enabled, with a
 * password) holds the Administrator role any more, ROLE_LOCKOUT when no role held by an active operator (a user of
 * no company: only they reach roles) may change roles.
 * The thrown error rolls the change back.
 */
export async function assertPlatformStillGoverned(tx: DbOrTx): Promise<void> {
  if (!(await activeHolderOfKindExists(tx, ADMINISTRATOR))) throw new AppError('LAST_ADMINISTRATOR');
  const held = await rulesHeldByActiveOperators(tx);
  const governs = held.some((rules) =>
    buildAbility(interpolateRules(rules, { user: { id: '', companyId: null } })).can('update', 'Role'),
  );
  if (!governs) throw new AppError('ROLE_LOCKOUT');
}
