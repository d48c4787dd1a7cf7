import { describe, expect, it } from 'vitest';
import { buildAbility, interpolateRules, RULE_PLACEHOLDERS } from './ability.ts';
import { type AbilityRule, abilityRuleSchema } from './ability-rule.ts';
import { conditionProblems } from './conditions.ts';
import { DEFAULT_ROLES, EARLIER_DEFAULT_RULES } from './default-roles.ts';
import { ACTIONS, SUBJECTS, USER_KINDS, type UserKind } from './subjects.ts';

const USER_ID = '0b9c7f0e-1111-4a5b-8c9d-000000000001';
const OWN_COMPANY = '0b9c7f0e-2222-4a5b-8c9d-000000000002';
const ctx = { user: { id: USER_ID, companyId: OWN_COMPANY } };

// biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder interpolateRules does not know
const UNKNOWN_PLACEHOLDER = '${user.email}';

const abilityOf = (kind: UserKind) => buildAbility(interpolateRules(DEFAULT_ROLES[kind].rules, ctx));

describe('interpolateRules', () => {
  it('replaces the placeholders in nested objects and arrays and leaves other strings alone', () => {
    const rules: AbilityRule[] = [
      {
        action: 'read',
        subject: 'Chat',
        conditions: {
          companyId: RULE_PLACEHOLDERS.companyId,
          userId: RULE_PLACEHOLDERS.userId,
          members: { $in: [RULE_PLACEHOLDERS.userId, 'someone-else'] },
          nested: { deeper: { owner: RULE_PLACEHOLDERS.userId, kind: 'Employee' } },
          // Only a whole-value placeholder is replaced, never one inside a longer string.
          note: `owner is ${RULE_PLACEHOLDERS.userId}`,
          unknown: UNKNOWN_PLACEHOLDER,
          count: 3,
          flag: false,
          nothing: null,
        },
      },
    ];
    const [rule] = interpolateRules(rules, ctx);
    expect(rule?.conditions).toEqual({
      companyId: OWN_COMPANY,
      userId: USER_ID,
      members: { $in: [USER_ID, 'someone-else'] },
      nested: { deeper: { owner: USER_ID, kind: 'Employee' } },
      note: `owner is ${RULE_PLACEHOLDERS.userId}`,
      unknown: UNKNOWN_PLACEHOLDER,
      count: 3,
      flag: false,
      nothing: null,
    });
  });

  it('keeps the other parts of a rule and rules without conditions', () => {
    const rules: AbilityRule[] = [
      { action: ['read', 'update'], subject: 'Company', conditions: { id: RULE_PLACEHOLDERS.companyId } },
      { action: 'read', subject: 'user', inverted: true, reason: 'because' },
    ];
    expect(interpolateRules(rules, ctx)).toEqual([
      { action: ['read', 'update'], subject: 'Company', conditions: { id: OWN_COMPANY } },
      { action: 'read', subject: 'user', inverted: true, reason: 'because' },
    ]);
  });

  it('does not change the stored rules', () => {
    const rules: AbilityRule[] = [
      { action: 'read', subject: 'Division', conditions: { companyId: RULE_PLACEHOLDERS.companyId } },
    ];
    interpolateRules(rules, ctx);
    expect(rules[0]?.conditions).toEqual({ companyId: RULE_PLACEHOLDERS.companyId });
  });
});

describe('buildAbility with the default roles', () => {
  // Only what the browser and the route guard ask without a resource: which conditions select which rows is decided
  // by the server in SQL and tested through it (apps/server/src/access/*.test.ts).
  it('opens each area to its own kind', () => {
    expect(abilityOf('DataManager').can('read', 'user')).toBe(true);
    expect(abilityOf('DataManager').can('read', 'admin')).toBe(false);
    expect(abilityOf('Employee').can('read', 'employee')).toBe(true);
    expect(abilityOf('Employee').can('read', 'user')).toBe(false);
    expect(abilityOf('Staff').can('read', 'admin')).toBe(true);
    expect(abilityOf('Administrator').can('manage', 'admin')).toBe(true);
  });

  it("Administrator: everything but the companies' knowledge, chats, customers, offers and invoices", () => {
    const ability = abilityOf('Administrator');
    const companyKnowledge = ['Division', 'File', 'Chat', 'Tag', 'Customer', 'SalesDocument'];
    for (const action of ACTIONS) {
      for (const name of SUBJECTS.filter((s) => s !== 'all')) {
        expect(ability.can(action, name), `${action} ${name}`).toBe(!companyKnowledge.includes(name));
      }
    }
  });

  it('publishing a chat is the data manager’s, never the employee’s', () => {
    expect(abilityOf('DataManager').can('publish', 'Chat')).toBe(true);
    expect(abilityOf('Employee').can('publish', 'Chat')).toBe(false);
    expect(abilityOf('Employee').can('manage', 'Chat')).toBe(false);
  });

  it('PublicUser: can nothing', () => {
    const ability = abilityOf('PublicUser');
    for (const action of ACTIONS) {
      for (const name of SUBJECTS) expect(ability.can(action, name), `${action} ${name}`).toBe(false);
    }
  });
});

describe('DEFAULT_ROLES', () => {
  it('has a role for every user kind', () => {
    expect(Object.keys(DEFAULT_ROLES).sort()).toEqual([...USER_KINDS].sort());
  });

  it.each(USER_KINDS)('every %s rule passes abilityRuleSchema', (kind) => {
    for (const rule of DEFAULT_ROLES[kind].rules) {
      const result = abilityRuleSchema.safeParse(rule);
      expect(result.success, `${kind}: ${JSON.stringify(rule)} ${result.error?.message ?? ''}`).toBe(true);
      expect(conditionProblems(rule), `${kind}: ${JSON.stringify(rule)}`).toEqual([]);
    }
  });
});

describe('abilityRuleSchema', () => {
  it('rejects unknown actions and subjects and empty lists', () => {
    expect(abilityRuleSchema.safeParse({ action: 'fly', subject: 'user' }).success).toBe(false);
    expect(abilityRuleSchema.safeParse({ action: 'read', subject: 'Spaceship' }).success).toBe(false);
    expect(abilityRuleSchema.safeParse({ action: [], subject: 'user' }).success).toBe(false);
  });

  it('earlier defaults are valid rules and differ from the current ones', () => {
    for (const [kind, versions] of Object.entries(EARLIER_DEFAULT_RULES)) {
      for (const rules of versions ?? []) {
        for (const rule of rules) expect(abilityRuleSchema.safeParse(rule).success).toBe(true);
        expect(rules).not.toEqual(DEFAULT_ROLES[kind as UserKind].rules);
      }
    }
  });
});
