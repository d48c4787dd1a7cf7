import { describe, expect, it } from 'vitest';
import { jobErrorMessage } from '../../../jobs/job-queue.ts';
import { normalizeSpace } from './blocks.ts';

describe('text that PostgreSQL can store', () => {
  it('drops NUL characters and unpaired surrogates found in real PDF text layers', () => {
    expect(normalizeSpace('Preis\u0000liste \ud800 2026\n\t€ 😀')).toBe('Preis liste 2026 € 😀');
  });

  it('keeps a failed job attempt short and free of control characters', () => {
    const error = Object.assign(new Error(`Failed query: insert ... params: ${'x'.repeat(50_000)}`), {
      cause: new Error('unsupported Unicode escape sequence\u0000'),
    });
    expect(jobErrorMessage(error)).toBe('unsupported Unicode escape sequence ');
    expect(jobErrorMessage(new Error('y'.repeat(5000)))).toHaveLength(1000);
  });
});
