import { subject } from '@casl/ability';
import { describe, expect, it } from 'vitest';
import {
  type AbilityRule,
  abilityRuleSchema,
  buildAbility,
  interpolateRules,
  RULE_PLACEHOLDERS,
} from './ability.ts';
import { DEFAULT_ROLES, EARLIER_DEFAULT_RULES } from './default-roles.ts';
import { ACTIONS, SUBJECTS, USER_KINDS, type UserKind } from './subjects.ts';

const USER_ID = '0b9c7f0e-1111-4a5b-8c9d-000000000001';
const OWN_COMPANY = '0b9c7f0e-2222-4a5b-8c9d-000000000002';
const OTHER_COMPANY = '0b9c7f0e-3333-4a5b-8c9d-000000000003';
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
  it('DataManager: reads the user area, not the admin area', () => {
    const ability = abilityOf('DataManager');
    expect(ability.can('read', 'user')).toBe(true);
    expect(ability.cannot('manage', 'admin')).toBe(true);
    expect(ability.can('read', 'admin')).toBe(false);
  });

  it('DataManager: updates its own company only', () => {
    const ability = abilityOf('DataManager');
    expect(ability.can('update', subject('Company', { id: OWN_COMPANY }))).toBe(true);
    expect(ability.can('update', subject('Company', { id: OTHER_COMPANY }))).toBe(false);
    expect(ability.can('delete', subject('Company', { id: OWN_COMPANY }))).toBe(false);
  });

  it('DataManager: manages its own company’s resources and employees only', () => {
    const ability = abilityOf('DataManager');
    expect(ability.can('delete', subject('Division', { companyId: OWN_COMPANY }))).toBe(true);
    expect(ability.can('delete', subject('Division', { companyId: OTHER_COMPANY }))).toBe(false);
    expect(ability.can('update', subject('User', { companyId: OWN_COMPANY, kind: 'Employee' }))).toBe(true);
    expect(ability.can('update', subject('User', { companyId: OWN_COMPANY, kind: 'DataManager' }))).toBe(
      false,
    );
    expect(ability.can('update', subject('User', { companyId: OTHER_COMPANY, kind: 'Employee' }))).toBe(
      false,
    );
    expect(ability.can('delete', subject('ApiKey', { userId: USER_ID }))).toBe(true);
    expect(ability.can('delete', subject('ApiKey', { userId: 'someone-else' }))).toBe(false);
  });

  it('Administrator: can everything', () => {
    const ability = abilityOf('Administrator');
    for (const action of ACTIONS) {
      for (const name of SUBJECTS) expect(ability.can(action, name), `${action} ${name}`).toBe(true);
    }
    expect(ability.can('update', subject('Company', { id: OTHER_COMPANY }))).toBe(true);
  });

  it('Employee: reads the employee area, not the user area', () => {
    const ability = abilityOf('Employee');
    expect(ability.can('read', 'employee')).toBe(true);
    expect(ability.cannot('read', 'user')).toBe(true);
    expect(ability.can('read', 'admin')).toBe(false);
  });

  it('Employee: chats only in its own name and company', () => {
    const ability = abilityOf('Employee');
    expect(ability.can('update', subject('Chat', { companyId: OWN_COMPANY, userId: USER_ID }))).toBe(true);
    expect(ability.can('update', subject('Chat', { companyId: OWN_COMPANY, userId: 'someone-else' }))).toBe(
      false,
    );
    expect(ability.can('read', subject('Division', { companyId: OTHER_COMPANY }))).toBe(false);
  });

  it('Employee: may not publish a chat, not even their own', () => {
    const ability = abilityOf('Employee');
    const own = subject('Chat', { companyId: OWN_COMPANY, userId: USER_ID });
    for (const action of ['create', 'read', 'update', 'delete'] as const) {
      expect(ability.can(action, own), action).toBe(true);
    }
    expect(ability.can('publish', own)).toBe(false);
    expect(ability.can('publish', 'Chat')).toBe(false);
    expect(ability.can('manage', 'Chat')).toBe(false);
  });

  it("DataManager: publishes and manages every chat of its company, and no other company's", () => {
    const ability = abilityOf('DataManager');
    const employees = subject('Chat', { companyId: OWN_COMPANY, userId: 'an-employee' });
    expect(ability.can('publish', 'Chat')).toBe(true);
    expect(ability.can('publish', employees)).toBe(true);
    expect(ability.can('update', employees)).toBe(true);
    expect(ability.can('delete', employees)).toBe(true);
    const foreign = subject('Chat', { companyId: OTHER_COMPANY, userId: 'someone' });
    expect(ability.can('delete', foreign)).toBe(false);
    expect(ability.can('publish', foreign)).toBe(false);
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
