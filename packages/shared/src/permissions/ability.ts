import {
  createMongoAbility,
  type ForcedSubject,
  type MongoAbility,
  type RawRuleOf,
  subject as tagSubject,
} from '@casl/ability';
import type { AbilityRule } from './ability-rule.ts';
import type { Action, Subject } from './subjects.ts';

/** Subjects are names, or instances tagged with CASL's `subject(name, object)` helper (or plain records). */
type AppSubject = Subject | ForcedSubject<Subject> | Record<string, unknown>;
export type AppAbility = MongoAbility<[Action, AppSubject]>;

/** Placeholders stored in role conditions and replaced with the actor's values when the ability is built. */
export const RULE_PLACEHOLDERS = {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a stored placeholder, interpolated by interpolateRules
  userId: '${user.id}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a stored placeholder, interpolated by interpolateRules
  companyId: '${user.companyId}',
} as const;

export interface RuleContext {
  user: { id: string; companyId: string | null };
}

/** Replaces `${user.id}` and `${user.companyId}` placeholders in rule conditions with the actor's values. */
export function interpolateRules(rules: AbilityRule[], ctx: RuleContext): AbilityRule[] {
  const replace = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const m = /^\$\{user\.(id|companyId)\}$/.exec(value);
      return m ? ctx.user[m[1] as 'id' | 'companyId'] : value;
    }
    if (Array.isArray(value)) return value.map(replace);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v)]));
    }
    return value;
  };
  return rules.map((r) =>
    r.conditions ? { ...r, conditions: replace(r.conditions) as Record<string, unknown> } : r,
  );
}

/** Builds the ability the server checks and the browser mirrors, from already interpolated rules. */
export function buildAbility(rules: AbilityRule[]): AppAbility {
  return createMongoAbility<[Action, AppSubject]>(rules as RawRuleOf<AppAbility>[]);
}

/**
 * A resource instance for a conditional check, e.g. `ability.can('publish', subjectOf('Chat', { companyId, userId }))`
 * (so that apps need not import CASL themselves).
 */
export function subjectOf<T extends Record<string, unknown>>(name: Subject, attributes: T) {
  return tagSubject(name, { ...attributes });
}
