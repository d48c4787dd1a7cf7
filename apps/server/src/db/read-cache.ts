/** How long a loaded value serves before it is read again: the most another process's change can stay unseen. */
export const READ_CACHE_MS = 1_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  value: Promise<unknown>;
  until: number;
}

/**
 * Values read from the database, kept for a second so that a busy caller costs about one read per second instead of
 * one per request. Every write of this process to the tables they are read from empties it (the pool's write watch,
 * `write-watch.ts`, set up by the composition root), so a change made here is seen by the next request; a change made
 * by another process is seen within `READ_CACHE_MS`. Requests that arrive together while a value loads share the one
 * read. Its values are shared: callers do not change them.
 */
export class ReadCache {
  private entries = new Map<string, Entry>();

  private readonly now: () => number;
  constructor(now: () => number = () => performance.now()) {
    this.now = now;
  }

  /** The cached value of `key`, or what `load` reads (a failed read is not kept). */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const found = this.entries.get(key);
    if (found && found.until > this.now()) return found.value as Promise<T>;
    const value = load();
    const entry: Entry = { value, until: this.now() + READ_CACHE_MS };
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** Forgets everything: something the cached values were read from may have changed. */
  clear(): void {
    this.entries.clear();
  }
}
