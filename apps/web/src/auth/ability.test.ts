import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('@werkwissen/shared/permissions/ability');
  vi.resetModules();
});

describe('loading the ability builder', () => {
  it('tries the download again after a failed one, instead of keeping the failure', async () => {
    let attempts = 0;
    vi.doMock('@werkwissen/shared/permissions/ability', () => {
      attempts += 1;
      if (attempts === 1) throw new Error('network down');
      return { buildAbility: () => 'built' };
    });
    const { loadAbilityBuilder, loadedAbilityBuilder } = await import('./ability.ts');
    await expect(loadAbilityBuilder()).rejects.toThrow();
    expect(loadedAbilityBuilder()).toBeNull();
    const build = await loadAbilityBuilder();
    expect(build([])).toBe('built');
    expect(attempts).toBe(2);
  });
});
