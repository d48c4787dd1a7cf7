import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { engineDatabase } from '../../test/support/test-database.ts';
import { type Database, openDatabase } from './database.ts';
import { watchWrites } from './write-watch.ts';

let dir: string;
let engine: { url: string; close(): Promise<void> };
let database: Database;
let heard: string[];
/** How often the watch has spoken: it is told when a statement's answer arrives, before anyone awaiting it runs. */
let writes = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ww-write-watch-'));
  engine = await engineDatabase(dir);
  database = openDatabase(engine.url, 2);
  watchWrites(database.pool, ['watched', 'other_watched'], () => {
    writes += 1;
  });
  await database.pool.query('create table watched (id int primary key, name text)');
  await database.pool.query('create table unwatched (id int primary key, watched_name text)');
  await database.pool.query('create table other_watched (id int primary key)');
}, 60_000);

afterAll(async () => {
  await database?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await database.pool.query('truncate watched, unwatched, other_watched');
  writes = 0;
  heard = [];
});

describe('the write watch', () => {
  it('hears a completed insert, update or delete of a watched table, after the statement is done', async () => {
    await database.pool.query('insert into watched values (1, $1)', ['a']);
    expect(writes).toBe(1);
    const rows = await database.pool.query('update watched set name = $1 where id = 1 returning name', ['b']);
    expect(rows.rows).toEqual([{ name: 'b' }]);
    expect(writes).toBe(2);
    await database.pool.query('delete from "other_watched"');
    expect(writes).toBe(3);
  });

  it('does not hear reads, or writes of other tables (a column named like a watched table included)', async () => {
    await database.pool.query('select * from watched');
    await database.pool.query("insert into unwatched values (1, 'x')");
    await database.pool.query("update unwatched set watched_name = 'y'");
    expect(writes).toBe(0);
  });

  it('hears a write in a with clause, not a write of another table that reads a watched one', async () => {
    await database.pool.query("insert into watched values (5, 'f')");
    writes = 0;
    await database.pool.query(
      'with w as (select name from watched where id = 5) insert into unwatched select 5, name from w',
    );
    await database.pool.query(
      'update unwatched u set watched_name = w.name from watched w where w.id = u.id',
    );
    await database.pool.query('delete from unwatched where id in (select id from "watched")');
    expect(writes).toBe(0);
    await database.pool.query(
      'with gone as (delete from public.watched where id = 5 returning id) select * from gone',
    );
    expect(writes).toBe(1);
  });

  it('hears the writes of a transaction again when it commits or rolls back, and not its reads', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('begin');
      await client.query('select 1 from watched');
      await client.query("insert into watched values (2, 'c')");
      heard.push(`after insert: ${writes}`);
      await client.query('commit');
      heard.push(`after commit: ${writes}`);
      await client.query('begin');
      await client.query("update watched set name = 'd'");
      await client.query('rollback');
      heard.push(`after rollback: ${writes}`);
      await client.query('begin');
      await client.query('select 1');
      await client.query('commit');
      heard.push(`after a transaction without writes: ${writes}`);
    } finally {
      client.release();
    }
    expect(heard).toEqual([
      'after insert: 1',
      'after commit: 2',
      'after rollback: 4',
      'after a transaction without writes: 4',
    ]);
  });

  it('hears a statement sent with a callback before the callback runs, and a failed write', async () => {
    const seen = await new Promise<number>((resolve, reject) =>
      database.pool.query("insert into watched values (3, 'e')", (error) =>
        error ? reject(error) : resolve(writes),
      ),
    );
    expect(seen).toBe(1);
    await expect(database.pool.query("insert into watched values (3, 'again')")).rejects.toThrow();
    expect(writes).toBe(2);
  });
});
