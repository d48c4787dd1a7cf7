/**
 * pglite-socket (0.2.17) multiplexes several client connections onto the one PGlite session, message by message. It
 * keeps a transaction to its own connection, but not an extended-protocol exchange: Parse, Bind and Execute of two
 * connections can interleave before their Sync, and then a query runs with another query's parameters (or fails
 * with "portal does not exist"). This replaces the queue's scheduler on a server instance so that a connection also
 * keeps the session from its first message until its Sync (or simple Query, or Terminate).
 */
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(error: Error): void;
  onData(data: Uint8Array): void;
}

interface QueueInternals {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: PGlite;
  processQueue(): Promise<void>;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'
const PASSWORD = 0x70; // 'p'

/** Whether a message ends an exchange, after which another connection may use the session. */
function endsExchange(message: Uint8Array): boolean {
  const type = message[0];
  // Startup messages have no type byte: they begin with their length, whose high byte is 0.
  return type === 0 || type === SYNC || type === QUERY || type === TERMINATE || type === PASSWORD;
}

export function serializeExchanges(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue: QueueInternals }).queryQueue;
  if (!queue || typeof queue.processQueue !== 'function') {
    throw new Error('pglite-socket changed its internals: review serialized-queue.ts before upgrading');
  }
  let midExchange = false;

  queue.processQueue = async function processQueue(this: QueueInternals) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const holder = this.lastHandlerId;
        let next: QueuedMessage | undefined;
        if (holder !== null && (midExchange || this.db.isInTransaction())) {
          const index = this.queue.findIndex((q) => q.handlerId === holder);
          if (index === -1) break; // wait for the holder's next message
          next = this.queue.splice(index, 1)[0];
        } else {
          next = this.queue.shift();
        }
        if (!next) break;
        const item = next;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          this.lastHandlerId = item.handlerId;
          midExchange = false;
          item.reject(error as Error);
          continue;
        }
        this.lastHandlerId = item.handlerId;
        midExchange = !endsExchange(item.message);
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }.bind(queue);

  const clearTransaction = queue.clearTransactionIfNeeded.bind(queue);
  queue.clearTransactionIfNeeded = async (handlerId: number) => {
    if (queue.lastHandlerId === handlerId && midExchange) {
      midExchange = false;
      if (!queue.db.isInTransaction()) {
        queue.lastHandlerId = null;
        await queue.processQueue();
        return;
      }
    }
    await clearTransaction(handlerId);
  };
}
