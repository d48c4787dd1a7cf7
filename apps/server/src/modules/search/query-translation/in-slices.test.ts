import { expect, it } from 'vitest';
import { flatMapInSlices, sortInSlices } from './in-slices.ts';

/** How many turns of the event loop passed while `work` ran. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const count = () => {
    if (!running) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  const result = await work();
  running = false;
  return { result, turns };
}

it('sorts like Array.sort, stably, and lets the event loop run between slices', async () => {
  const items = Array.from({ length: 1000 }, (_, i) => ({ key: (i * 7919) % 97, at: i }));
  const compare = (a: { key: number }, b: { key: number }) => a.key - b.key;
  const { result, turns } = await turnsDuring(() => sortInSlices(items, compare, 64));
  expect(result).toEqual([...items].sort(compare));
  expect(turns).toBeGreaterThan(10);
  expect(await sortInSlices([], compare)).toEqual([]);
});

it('flat-maps like Array.flatMap, a slice at a time', async () => {
  const items = Array.from({ length: 500 }, (_, i) => i);
  const f = (i: number) => (i % 3 === 0 ? [] : [i, -i]);
  const { result, turns } = await turnsDuring(() => flatMapInSlices(items, f, 50));
  expect(result).toEqual(items.flatMap(f));
  expect(turns).toBeGreaterThan(5);
});
