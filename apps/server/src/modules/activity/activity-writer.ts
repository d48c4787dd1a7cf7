import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import { activityLog } from '../../db/schema/index.ts';

export type ActivityEntry = typeof activityLog.$inferInsert;

/** How long an entry may wait for others before it is written, and how many are written at most in one insert. */
export const FLUSH_AFTER_MS = 200;
export const MAX_BATCH = 200;

/**
 * Writes the activity log off the request path: entries of finished requests are collected and written together,
 * one insert per batch instead of one per request (fifty simultaneous questions cost one statement, not fifty).
 * Readers of the log flush first, so this process's own entries are always seen; another process's appear within
 * FLUSH_AFTER_MS. A stopping server flushes what is left (`close`); entries of a process that is killed outright
 * within that window are lost, as a failed insert's are (it is logged).
 */
export class ActivityWriter {
  #pending: ActivityEntry[] = [];
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  add(entry: ActivityEntry): void {
    this.#pending.push(entry);
    if (this.#pending.length >= MAX_BATCH) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS).unref();
  }

  /** Writes every entry added so far; resolves once they are in the database (or their failure is logged). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const batch = this.#pending.splice(0, this.#pending.length);
    // One insert at a time, in order: a flush waits for the one before it.
    this.#writing = this.#writing.then(() => (batch.length > 0 ? this.#write(batch) : undefined));
    return this.#writing;
  }

  close(): Promise<void> {
    return this.flush();
  }

  async #write(batch: ActivityEntry[]): Promise<void> {
    for (let i = 0; i < batch.length; i += MAX_BATCH) {
      const part = batch.slice(i, i + MAX_BATCH);
      await this.db
        .insert(activityLog)
        .values(part)
        .catch((error: unknown) =>
          this.log.error({ err: error, entries: part.length }, 'could not record activity'),
        );
    }
  }
}
