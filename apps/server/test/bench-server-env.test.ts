import { CONFIG_DEFAULTS } from '@werkwissen/shared';
import { describe, expect, it } from 'vitest';
import { BENCH_SERVER_ENV } from '../bench/support/bench-kit.ts';
import { TEST_SERVER_ENV } from './support/processes.ts';

describe("a benchmark's server", () => {
  it('runs with the product defaults of everything the test servers change', () => {
    const changed = Object.keys(TEST_SERVER_ENV);
    expect(changed.length).toBeGreaterThan(0);
    for (const key of changed)
      expect([key, BENCH_SERVER_ENV[key]]).toEqual([
        key,
        CONFIG_DEFAULTS[key as keyof typeof CONFIG_DEFAULTS],
      ]);
  });
});
