import { describe, expect, it } from 'vitest';
import { buildAbility } from './ability.ts';
import { conditionProblems, conditionTree } from './conditions.ts';

describe('conditionProblems', () => {
  it('accepts known attributes with plain values, $eq, $ne, $in and $nin', () => {
    expect(
      conditionProblems({
        action: 'read',
        subject: ['Division', 'File'],
        conditions: { companyId: 'c', id: { $in: ['a', 'b'] } },
      }),
    ).toEqual([]);
    expect(
      conditionProblems({
        action: 'read',
        subject: 'Chat',
        conditions: {
          visibility: { $ne: 'private' },
          userId: { $nin: [] },
          divisionsReadable: true,
          id: null,
        },
      }),
    ).toEqual([]);
    expect(conditionProblems({ action: 'read', subject: 'all' })).toEqual([]);
  });

  it('names unknown attributes per subject, unsupported operators and malformed operands', () => {
    expect(
      conditionProblems({ action: 'read', subject: ['Division', 'File'], conditions: { name: 'Heizung' } }),
    ).toEqual(['File: unknown attribute name']);
    expect(
      conditionProblems({ action: 'read', subject: 'Tag', conditions: { id: { $regex: '^a' } } }),
    ).toEqual(['Tag: id: operator $regex is not supported']);
    expect(conditionProblems({ action: 'read', subject: 'Tag', conditions: { id: { $in: 'a' } } })).toEqual([
      'Tag: id: $in needs a list of values',
    ]);
    expect(conditionProblems({ action: 'read', subject: 'Tag', conditions: { id: ['a'] } })).toEqual([
      'Tag: id: not a value or operator',
    ]);
    // CASL would read a top-level `$or` as an attribute: refused rather than silently never matching.
    expect(
      conditionProblems({ action: 'read', subject: 'Tag', conditions: { $or: [{ id: 'a' }] } }),
    ).toContainEqual('Tag: unknown attribute $or');
  });

  it('refuses conditions on areas and on `all`', () => {
    expect(conditionProblems({ action: 'read', subject: 'admin', conditions: { companyId: 'c' } })).toEqual([
      'admin: conditions apply to resources only',
    ]);
    expect(conditionProblems({ action: 'manage', subject: 'all', conditions: { companyId: 'c' } })).toEqual([
      'all: conditions apply to resources only',
    ]);
  });
});

describe('conditionTree', () => {
  it('is null without a rule, an empty `and` for an unconditional one, and carries inverted rules as `not`', () => {
    const ability = buildAbility([
      { action: 'read', subject: 'File' },
      { action: 'read', subject: 'Tag', conditions: { companyId: 'c' } },
      { action: 'read', subject: 'Tag', inverted: true, conditions: { id: 't' } },
    ]);
    expect(conditionTree(ability, 'read', 'Division')).toBeNull();
    expect(conditionTree(ability, 'read', 'File')).toEqual({ operator: 'and', value: [] });
    expect(JSON.parse(JSON.stringify(conditionTree(ability, 'read', 'Tag')))).toEqual({
      operator: 'and',
      value: [
        { operator: 'eq', field: 'companyId', value: 'c' },
        { operator: 'not', value: [{ operator: 'eq', field: 'id', value: 't' }] },
      ],
    });
  });
});
