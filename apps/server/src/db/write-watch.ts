import type pg from 'pg';

/** The table a statement writes: the name after `insert into`, `update`, `delete from` or `merge into`. */
const WRITE_TARGET =
  /\b(?:insert\s+into|update|delete\s+from|merge\s+into)\s+(?:only\s+)?(?:"?public"?\.)?"?(\w+)/gi;
/** `truncate` lists its tables: any watched name in the statement counts. */
const TRUNCATE = /\btruncate\b/i;
const TRANSACTION_END = /^\s*(?:commit|rollback|end|abort)\b/i;

type Query = pg.PoolClient['query'];
type WatchedClient = pg.PoolClient & { writeWatchDirty?: boolean };

/**
 * Tells `onWrite` when a statement of this pool may have changed one of `tables`: when the statement completes, and
 * again when the transaction it ran in ends (a reader beside an open transaction still sees the old rows, and may
 * have cached them meanwhile). A statement counts when one of the tables is what it inserts into, updates, deletes
 * from or merges into (also in a `with` clause), or when it truncates and names one; a statement that only reads a
 * watched table while it writes another (a question's thread, inserted for a chat read with its company) does not.
 * Rows a foreign key's cascade removes are not seen: watch the table whose delete cascades too. Statements of other
 * pools and other processes are not seen.
 */
export function watchWrites(pool: pg.Pool, tables: readonly string[], onWrite: () => void): void {
  const names = new RegExp(`\\b(?:${tables.join('|')})\\b`, 'i');
  const watched = new Set(tables.map((t) => t.toLowerCase()));
  const writesWatched = (text: string) =>
    names.test(text) &&
    (TRUNCATE.test(text) || [...text.matchAll(WRITE_TARGET)].some((m) => watched.has(m[1]!.toLowerCase())));
  pool.on('connect', (connected) => {
    const client = connected as WatchedClient;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const wrapped = (...args: unknown[]) => {
      const first = args[0] as string | { text?: unknown; submit?: unknown } | undefined;
      const text = typeof first === 'string' ? first : typeof first?.text === 'string' ? first.text : '';
      const writes = text !== '' && writesWatched(text);
      const ends = client.writeWatchDirty === true && TRANSACTION_END.test(text);
      if (!writes && !ends) return query(...args);
      if (writes) client.writeWatchDirty = true;
      const after = () => {
        if (ends) client.writeWatchDirty = false;
        onWrite();
      };
      const callbackAt = args.findIndex((a) => typeof a === 'function');
      if (callbackAt >= 0) {
        const callback = args[callbackAt] as (...results: unknown[]) => void;
        args[callbackAt] = (...results: unknown[]) => {
          after();
          callback(...results);
        };
        return query(...args);
      }
      const result = query(...args);
      if (result instanceof Promise) result.then(after, after);
      else after();
      return result;
    };
    client.query = wrapped as Query;
  });
}
