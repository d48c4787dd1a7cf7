/**
 * Work on large arrays (a dictionary's 460,000 index lines) in slices, with a turn of the event loop between them, so
 * that reading a dictionary while the server answers other requests does not stall them for seconds.
 */

const SLICE = 20_000;

/** The event loop's next turn: timers, I/O and other requests run first. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `items.flatMap(f)`, a slice at a time. */
export async function flatMapInSlices<T, U>(items: T[], f: (item: T) => U[], slice = SLICE): Promise<U[]> {
  const out: U[] = [];
  for (let start = 0; start < items.length; start += slice) {
    if (start > 0) await nextTurn();
    for (let i = start; i < Math.min(items.length, start + slice); i++)
      for (const u of f(items[i]!)) out.push(u);
  }
  return out;
}

/** A stable sort, a slice at a time: the slices sorted, then merged pairwise (each merge a slice at a time). */
export async function sortInSlices<T>(
  items: T[],
  compare: (a: T, b: T) => number,
  slice = SLICE,
): Promise<T[]> {
  let runs: T[][] = [];
  for (let start = 0; start < items.length; start += slice) {
    if (start > 0) await nextTurn();
    runs.push(items.slice(start, start + slice).sort(compare));
  }
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let r = 0; r < runs.length; r += 2) {
      const [a, b] = [runs[r]!, runs[r + 1]];
      merged.push(b ? await merge(a, b, compare, slice) : a);
    }
    runs = merged;
  }
  return runs[0] ?? [];
}

async function merge<T>(a: T[], b: T[], compare: (a: T, b: T) => number, slice: number): Promise<T[]> {
  const out: T[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (out.length % slice === 0) await nextTurn();
    // Ties take `a`'s first: the earlier slice, as a stable sort would.
    if (j >= b.length || (i < a.length && compare(a[i]!, b[j]!) <= 0)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}
