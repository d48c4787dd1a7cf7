import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { parse, serialize } from 'pg-protocol';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgliteServerHandle, startPgliteServer } from './pglite-process.ts';

let handle: PgliteServerHandle;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ww-pglite-'));
  handle = await startPgliteServer(dir, 0);
});
afterAll(async () => {
  await handle?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the embedded database with many connections', () => {
  it('keeps an extended-protocol exchange to its connection until its Sync, even if another one arrives between', async () => {
    const a = await rawConnection(handle.port);
    const b = await rawConnection(handle.port);
    try {
      // A prepares a one-parameter statement and pauses before binding it.
      a.send(serialize.parse({ text: 'select $1::int as a' }));
      await new Promise((r) => setTimeout(r, 50));
      // B runs a whole two-parameter query meanwhile.
      const bDone = b.until('readyForQuery');
      b.send(
        Buffer.concat([
          serialize.parse({ text: 'select $1::text || $2::text as b' }),
          serialize.bind({ values: ['x', 'y'] }),
          serialize.execute(),
          serialize.sync(),
        ]),
      );
      await new Promise((r) => setTimeout(r, 50));
      const aDone = a.until('readyForQuery');
      a.send(Buffer.concat([serialize.bind({ values: ['7'] }), serialize.execute(), serialize.sync()]));
      await Promise.all([aDone, bDone]);
      expect(a.errors).toEqual([]);
      expect(b.errors).toEqual([]);
      expect(a.rows).toEqual([['7']]);
      expect(b.rows).toEqual([['xy']]);
    } finally {
      a.close();
      b.close();
    }
  });

  it('keeps a transaction to its own connection', async () => {
    const url = `postgres://postgres@127.0.0.1:${handle.port}/postgres`;
    const a = new pg.Client({ connectionString: url });
    const b = new pg.Client({ connectionString: url });
    await a.connect();
    await b.connect();
    try {
      await a.query('create table if not exists tx_probe (v int)');
      await a.query('begin');
      await a.query('insert into tx_probe values ($1)', [1]);
      const outside = b.query<{ n: string }>('select count(*) as n from tx_probe');
      await a.query('rollback');
      expect((await outside).rows[0]!.n).toBe('0');
    } finally {
      await a.end();
      await b.end();
    }
  });
});

/** A bare wire-protocol client, to send the messages of one exchange at chosen moments. */
async function rawConnection(port: number) {
  const socket = createConnection({ host: '127.0.0.1', port });
  const rows: string[][] = [];
  const errors: string[] = [];
  const waiting: Array<{ name: string; resolve(): void }> = [];
  void parse(socket, (msg: BackendMessage) => {
    if (msg.name === 'dataRow') rows.push((msg as unknown as { fields: string[] }).fields);
    if (msg.name === 'error') errors.push((msg as unknown as { message: string }).message);
    const i = waiting.findIndex((w) => w.name === msg.name);
    if (i >= 0) waiting.splice(i, 1)[0]!.resolve();
  });
  const connection = {
    rows,
    errors,
    send: (buffer: Buffer) => socket.write(buffer),
    until: (name: string) => new Promise<void>((resolve) => waiting.push({ name, resolve })),
    close: () => socket.destroy(),
  };
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const ready = connection.until('readyForQuery');
  connection.send(serialize.startup({ user: 'postgres', database: 'postgres' }));
  await ready;
  return connection;
}
