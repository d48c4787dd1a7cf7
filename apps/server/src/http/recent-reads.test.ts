import { describe, expect, it } from 'vitest';
import { READ_REPEAT_MINUTES, RecentReads } from './recent-reads.ts';

describe('reads while viewing as someone', () => {
  it('are logged once per view and address within the window, and again after it', () => {
    const reads = new RecentReads();
    const t0 = Date.parse('2026-05-01T10:00:00Z');
    const window = READ_REPEAT_MINUTES * 60_000;
    expect(reads.firstOf('view-1', '/api/v1/chats/a', t0)).toBe(true);
    expect(reads.firstOf('view-1', '/api/v1/chats/a', t0 + window - 1)).toBe(false);
    expect(reads.firstOf('view-1', '/api/v1/chats/b', t0 + 1)).toBe(true);
    expect(reads.firstOf('view-2', '/api/v1/chats/a', t0 + 2)).toBe(true);
    expect(reads.firstOf('view-1', '/api/v1/chats/a', t0 + window)).toBe(true);
  });

  it('keeps the recent addresses when it forgets many old ones', () => {
    const reads = new RecentReads();
    const t0 = Date.parse('2026-05-01T10:00:00Z');
    for (let i = 0; i < 10_000; i++) reads.firstOf('old', `/api/v1/files/${i}`, t0);
    const later = t0 + READ_REPEAT_MINUTES * 60_000 + 1;
    expect(reads.firstOf('new', '/api/v1/files/x', later)).toBe(true);
    expect(reads.firstOf('new', '/api/v1/files/y', later)).toBe(true);
    expect(reads.firstOf('new', '/api/v1/files/x', later + 1)).toBe(false);
  });
});
