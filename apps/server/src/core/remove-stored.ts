import type { AppContext } from '../app-context.ts';

/**
 * Removes objects from the file storage, one after the other, whose rows are already gone (or were never committed).
 * The caller's change stands either way, so a failed removal never fails it: it is logged with the key, naming what
 * the object was, and the object stays behind as an orphan.
 */
export async function removeStored(
  ctx: Pick<AppContext, 'storage' | 'log'>,
  keys: ReadonlyArray<string | null | undefined>,
  what: string,
): Promise<void> {
  for (const key of keys) {
    if (!key) continue;
    await ctx.storage
      .remove(key)
      .catch((error: unknown) => ctx.log.warn({ err: error, key }, `${what} not removed`));
  }
}
