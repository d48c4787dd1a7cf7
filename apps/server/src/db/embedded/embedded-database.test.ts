import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { seedFromTemplate } from '../../../test/support/test-database.ts';
import { type EmbeddedDatabase, startEmbeddedDatabase } from './embedded-database.ts';

/** The command lines of this process's children (the embedded database is forked from it). */
function childCommands(): string[] {
  return execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('pglite-process'));
}

let started: { db: EmbeddedDatabase; dir: string } | null = null;
afterEach(async () => {
  await started?.db.stop();
  if (started) rmSync(started.dir, { recursive: true, force: true });
  started = null;
});

async function start(options?: { optimize?: boolean }): Promise<EmbeddedDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'ww-embedded-'));
  seedFromTemplate(dir);
  const db = await startEmbeddedDatabase(dir, () => {}, options);
  started = { db, dir };
  return db;
}

describe('the embedded database process (EMBEDDED_DATABASE_OPTIMIZE)', () => {
  it('optimises its WebAssembly by default', async () => {
    await start();
    const [command] = childCommands();
    expect(command).toContain('pglite-process');
    expect(command).not.toContain('--liftoff-only');
  });

  it('keeps to the baseline compiler when not optimising, and answers queries', async () => {
    const db = await start({ optimize: false });
    expect(childCommands()).toEqual([expect.stringContaining('--liftoff-only')]);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query("select '[1,2]'::vector <-> '[1,3]'::vector as distance");
      expect(rows[0].distance).toBe(1);
    } finally {
      await client.end();
    }
  });
});
