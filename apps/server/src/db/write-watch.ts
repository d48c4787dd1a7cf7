import type pg from 'pg';

const WRITE = /\b(?:insert|update|delete|truncate|merge)\b/i;
const TRANSACTION_END = /^\s*(?:commit|rollback|end|abort)\b/i;

type Query = pg.PoolClient['query'];
type WatchedClient = pg.PoolClient & { writeWatchDirty?: boolean };

/**
 * Tells `onWrite` when a statement of this pool may have changed one of `tables`: when the statement completes, and
 * again when the transaction it ran in ends (a reader beside an open transaction still sees the old rows, and may
 * have cached them meanwhile). It errs on the side of telling: any statement that names one of the tables and a
 * writing keyword counts. Statements of other pools and other processes are not seen.
 */
export function watchWrites(pool: pg.Pool, tables: readonly string[], onWrite: () => void): void {
  const names = new RegExp(`\\b(?:${tables.join('|')})\\b`, 'i');
  pool.on('connect', (connected) => {
    const client = connected as WatchedClient;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const wrapped = (...args: unknown[]) => {
      const first = args[0] as string | { text?: unknown; submit?: unknown } | undefined;
      const text = typeof first === 'string' ? first : typeof first?.text === 'string' ? first.text : '';
      const writes = text !== '' && names.test(text) && WRITE.test(text);
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
