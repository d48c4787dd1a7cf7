import { describe, expect, it } from 'vitest';
import { buildAbility, interpolateRules, RULE_PLACEHOLDERS, subjectOf } from './ability.ts';
import type { AbilityRule } from './ability-rule.ts';
import { DEFAULT_ROLES } from './default-roles.ts';
import { cellOf, holdsRight, setCell } from './role-matrix.ts';

const own = { companyId: RULE_PLACEHOLDERS.companyId };
const operator = { companyRole: false };
const company = { companyRole: true };

describe('cellOf', () => {
  it('reads the rules as written: can, cannot (which wins) and conditional', () => {
    const admin = DEFAULT_ROLES.Administrator.rules;
    expect(cellOf(admin, 'all', 'manage')).toEqual({ state: 'can', conditional: false });
    expect(cellOf(admin, 'Division', 'manage')).toEqual({ state: 'cannot', conditional: false });
    expect(cellOf(admin, 'User', 'read')).toEqual({ state: 'none', conditional: false });
    expect(cellOf(DEFAULT_ROLES.Employee.rules, 'Division', 'read')).toEqual({
      state: 'can',
      conditional: true,
    });
  });
});

describe('setCell', () => {
  it('removes one action from a rule naming several, keeping the rest and its conditions', () => {
    const rules: AbilityRule[] = [
      { action: ['read', 'update'], subject: ['User', 'Company'], conditions: own },
    ];
    const next = setCell(rules, 'User', 'update', 'none', operator);
    expect(next).toEqual([
      { action: ['read', 'update'], subject: 'Company', conditions: own },
      { action: 'read', subject: 'User', conditions: own },
    ]);
  });

  it("never drops a company role's conditions when an action is added or removed", () => {
    const rules = DEFAULT_ROLES.Employee.rules;
    const added = setCell(rules, 'Division', 'update', 'can', company);
    expect(added.find((r) => r.subject === 'Division')).toEqual({
      action: ['read', 'update'],
      subject: 'Division',
      conditions: { ...own, assignedTo: RULE_PLACEHOLDERS.userId },
    });
    // A subject the role had no rule on is bound to the holder's company.
    expect(setCell(rules, 'ActivityLog', 'read', 'can', company).at(-1)).toEqual({
      action: 'read',
      subject: 'ActivityLog',
      conditions: own,
    });
    expect(setCell(rules, 'Feedback', 'read', 'can', company)).toContainEqual({
      action: ['create', 'read'],
      subject: 'Feedback',
      conditions: own,
    });
    expect(setCell(rules, 'Company', 'read', 'can', company).at(-1)).toEqual({
      action: 'read',
      subject: 'Company',
      conditions: { id: RULE_PLACEHOLDERS.companyId },
    });
    // Removing and adding back keeps every condition the role had.
    const removed = setCell(rules, 'Chat', 'delete', 'none', company);
    const restored = setCell(removed, 'Chat', 'delete', 'can', company);
    expect(restored.every((r) => r.subject !== 'Chat' || r.conditions)).toBe(true);
    const ability = buildAbility(interpolateRules(restored, { user: { id: 'u1', companyId: 'c1' } }));
    expect(ability.can('delete', subjectOf('Chat', { companyId: 'c1', userId: 'u1' }))).toBe(true);
    expect(ability.can('delete', subjectOf('Chat', { companyId: 'c2', userId: 'u1' }))).toBe(false);
  });

  it("adds an operator role's new rights without conditions, before the inverted rules", () => {
    const next = setCell(DEFAULT_ROLES.Administrator.rules, 'Feedback', 'read', 'can', operator);
    expect(next[1]).toEqual({ action: 'read', subject: 'Feedback' });
    expect(next.at(-1)?.inverted).toBe(true);
  });

  it('writes an inverted rule for `cannot` that overrides the role’s `can`', () => {
    const rules = [{ action: 'manage' as const, subject: 'all' as const }];
    const next = setCell(rules, 'Role', 'delete', 'cannot', operator);
    expect(next).toEqual([...rules, { action: 'delete', subject: 'Role', inverted: true }]);
    const ability = buildAbility(next);
    expect(ability.can('delete', 'Role')).toBe(false);
    expect(ability.can('update', 'Role')).toBe(true);
    expect(setCell(next, 'Role', 'delete', 'none', operator)).toEqual(rules);
  });
});

describe('holdsRight', () => {
  it('holds a right reached by an unconditional `can` before any `cannot`', () => {
    const admin = buildAbility(DEFAULT_ROLES.Administrator.rules);
    expect(holdsRight(admin, 'read', 'Feedback')).toBe(true);
    expect(holdsRight(admin, 'manage', 'Feedback')).toBe(true);
    expect(holdsRight(admin, 'update', 'Division')).toBe(false);
    // `all` covers the companies' knowledge the administrator's `cannot` rules withhold; `manage` every action.
    expect(holdsRight(admin, 'manage', 'all')).toBe(false);
    expect(holdsRight(admin, 'read', 'all')).toBe(false);
    expect(holdsRight(buildAbility([{ action: 'manage', subject: 'all' }]), 'read', 'all')).toBe(true);
    const noDelete = buildAbility([
      { action: 'manage', subject: 'Feedback' },
      { action: 'delete', subject: 'Feedback', inverted: true },
    ]);
    expect(holdsRight(noDelete, 'read', 'Feedback')).toBe(true);
    expect(holdsRight(noDelete, 'manage', 'Feedback')).toBe(false);
    // A conditional right is not held all over.
    const manager = buildAbility(
      interpolateRules(DEFAULT_ROLES.DataManager.rules, { user: { id: 'u', companyId: 'c' } }),
    );
    expect(holdsRight(manager, 'read', 'Feedback')).toBe(false);
    expect(holdsRight(buildAbility([{ action: 'read', subject: 'Feedback' }]), 'manage', 'Feedback')).toBe(
      false,
    );
  });
});
