import { describe, expect, it } from 'vitest';
import { changedValues, shownValue } from './change-diff.ts';

describe('changedValues', () => {
  it('lists only the leaves that differ, with their paths', () => {
    expect(
      changedValues(
        { general: { appTitle: 'Alt', publicUrl: 'https://a.example' }, plans: { trialDays: 14 } },
        { general: { appTitle: 'Neu', publicUrl: 'https://a.example' }, plans: { trialDays: 30 } },
      ),
    ).toEqual([
      { path: 'general.appTitle', before: 'Alt', after: 'Neu' },
      { path: 'plans.trialDays', before: 14, after: 30 },
    ]);
  });

  it('shows added and removed keys, and compares arrays whole', () => {
    expect(changedValues({ a: [1, 2], gone: 'x' }, { a: [1, 2, 3], added: true })).toEqual([
      { path: 'a', before: [1, 2], after: [1, 2, 3] },
      { path: 'gone', before: 'x', after: undefined },
      { path: 'added', before: undefined, after: true },
    ]);
  });

  it('walks an object that had no earlier value (null) key by key', () => {
    expect(changedValues(null, { resentFrom: 'id-1', to: 'a@b.example' })).toEqual([
      { path: 'resentFrom', before: undefined, after: 'id-1' },
      { path: 'to', before: undefined, after: 'a@b.example' },
    ]);
    expect(changedValues('text', { a: 1 })).toEqual([{ path: '', before: 'text', after: { a: 1 } }]);
    expect(changedValues({ a: 1 }, { a: 1 })).toEqual([]);
  });

  it('shows text as it is and other values as JSON', () => {
    expect([
      shownValue('a'),
      shownValue(3),
      shownValue(false),
      shownValue(null),
      shownValue(undefined),
    ]).toEqual(['a', '3', 'false', '', '']);
  });
});
