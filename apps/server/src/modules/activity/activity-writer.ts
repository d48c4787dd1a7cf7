import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import { activityLog } from '../../db/schema/index.ts';

export type ActivityEntry = typeof activityLog.$inferInsert;

/**
 * A value as PostgreSQL stores it: text and jsonb refuse the NUL character, so it becomes U+FFFD (the replacement
 * character) in every string, object key included; the entry shows that something was there.
 */
export function storable<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '\ufffd') as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v)])) as T;
  }
  return value;
}

/** How long an entry may wait for others before it is written, and how many are written at most in one insert. */
export const FLUSH_AFTER_MS = 200;
export const MAX_BATCH = 200;

/**
 * Writes the activity log off the request path: entries of finished requests are collected and written together,
 * one insert per batch instead of one per request (fifty simultaneous questions cost one statement, not fifty).
 * Readers of the log flush first, so this process's own entries are always seen; another process's appear within
 * FLUSH_AFTER_MS. A stopping server flushes what is left (`close`); entries of a process that is killed outright
 * within that window are lost. Values are made storable on the way in (`storable`), and a batch the database
 * refuses is written again entry by entry, so one bad entry never takes the others with it; an entry refused alone
 * (a user or company deleted meanwhile) is written without its references, and only then given up (and logged).
 */
export class ActivityWriter {
  #pending: ActivityEntry[] = [];
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> = Promise.resolve();

  private readonly db: Db;
  private readonly log: Logger;
  constructor(db: Db, log: Logger) {
    this.db = db;
    this.log = log;
  }

  add(entry: ActivityEntry): void {
    this.#pending.push(storable(entry));
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
      const written = await this.#insert(part);
      if (written) continue;
      for (const entry of part) {
        // A user or company deleted since the request (a whole company with its users): the entry keeps its e-mail
        // addresses without the references.
        if (part.length === 1 || !(await this.#insert([entry]))) {
          await this.#insert([{ ...entry, actorUserId: null, impersonatorUserId: null, companyId: null }]);
        }
      }
    }
  }

  async #insert(entries: ActivityEntry[]): Promise<boolean> {
    try {
      await this.db.insert(activityLog).values(entries);
      return true;
    } catch (error) {
      const only = entries.length === 1 ? entries[0] : undefined;
      this.log.error(
        { err: error, entries: entries.length, action: only?.action, requestId: only?.requestId },
        entries.length === 1
          ? 'could not record activity'
          : 'could not record an activity batch: entry by entry',
      );
      return false;
    }
  }
}
