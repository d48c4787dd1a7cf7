import { describe, expect, it } from 'vitest';
import { READ_CACHE_MS, ReadCache } from './read-cache.ts';

function clockedCache() {
  const clock = { now: 0 };
  return { clock, cache: new ReadCache(() => clock.now) };
}

describe('the read cache', () => {
  it('serves a loaded value until READ_CACHE_MS have passed, then reads it again', async () => {
    const { clock, cache } = clockedCache();
    let reads = 0;
    const load = async () => ++reads;
    expect(await cache.get('k', load)).toBe(1);
    clock.now = READ_CACHE_MS - 1;
    expect(await cache.get('k', load)).toBe(1);
    clock.now = READ_CACHE_MS;
    expect(await cache.get('k', load)).toBe(2);
  });

  it('reads everything again after clear (a write of this process)', async () => {
    const { cache } = clockedCache();
    let reads = 0;
    const load = async () => ++reads;
    await cache.get('a', load);
    await cache.get('b', load);
    cache.clear();
    expect(await cache.get('a', load)).toBe(3);
    expect(await cache.get('b', load)).toBe(4);
  });

  it('gives requests that arrive while a value loads the one read, and a read begun before clear to nobody after', async () => {
    const { cache } = clockedCache();
    let reads = 0;
    let finish: (value: number) => void = () => {};
    const slow = () => {
      reads += 1;
      return new Promise<number>((resolve) => {
        finish = resolve;
      });
    };
    const first = cache.get('k', slow);
    const second = cache.get('k', slow);
    expect(reads).toBe(1);
    const before = finish;
    cache.clear();
    const third = cache.get('k', slow);
    expect(reads).toBe(2);
    before(1);
    finish(2);
    expect(await Promise.all([first, second, third])).toEqual([1, 1, 2]);
  });

  it('does not keep a failed read', async () => {
    const { cache } = clockedCache();
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => 'read again')).toBe('read again');
  });

  it('keys values apart', async () => {
    const { cache } = clockedCache();
    expect(await cache.get('session:1', async () => 'one')).toBe('one');
    expect(await cache.get('session:2', async () => 'two')).toBe('two');
    expect(await cache.get('session:1', async () => 'other')).toBe('one');
  });
});
