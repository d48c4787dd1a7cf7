import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useLanguage } from '../test/render.tsx';
import { useFormat } from './format.ts';

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

describe('sizes', () => {
  it('take the largest unit that leaves at least one, with one decimal below ten', () => {
    const { size } = renderHook(() => useFormat()).result.current;
    expect(
      [0, 100, 2.5 * KB, 512 * KB, 1.5 * MB, 7 * MB, 100 * MB, 5 * GB, 4.5 * GB, 2048 * GB].map(size),
    ).toEqual([
      '0 KB',
      '0.1 KB',
      '2.5 KB',
      '512 KB',
      '1.5 MB',
      '7 MB',
      '100 MB',
      '5 GB',
      '4.5 GB',
      '2,048 GB',
    ]);
  });

  it('move up a unit at 1,000, so that no size reads "1,023 KB"', () => {
    const { size } = renderHook(() => useFormat()).result.current;
    expect(size(999 * KB)).toBe('999 KB');
    expect(size(1000 * KB)).toBe('1 MB');
    expect(size(1023 * MB)).toBe('1 GB');
  });

  it('are written as the interface language writes numbers', async () => {
    await useLanguage('de');
    const de = renderHook(() => useFormat()).result.current;
    expect([de.size(1.5 * MB), de.size(5 * GB), de.number(5120)]).toEqual(['1,5 MB', '5 GB', '5.120']);
    await useLanguage('fr');
    const fr = renderHook(() => useFormat()).result.current;
    expect(fr.size(1.5 * MB)).toBe('1,5 Mo');
  });
});
