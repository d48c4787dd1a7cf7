import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_JOBS } from '../../src/job-registry.ts';
import { templateKey } from './database-template.ts';
import { serverDir } from './processes.ts';
import { engineDatabase, engineName } from './test-database.ts';

const folders: string[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ww-template-test-'));
  folders.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('the migrated database template', () => {
  it('is named after the migrations: changing one names another template', () => {
    const migrations = join(folder(), 'drizzle');
    cpSync(join(serverDir, 'drizzle'), migrations, { recursive: true });
    const before = templateKey(migrations);
    expect(templateKey(migrations)).toBe(before);
    appendFileSync(join(migrations, '0000_enable-pgvector.sql'), '\n-- changed\n');
    expect(templateKey(migrations)).not.toBe(before);
  });

  it('is named after the job queues it holds: a new job or a changed schedule names another template', () => {
    const before = templateKey();
    const [first, ...others] = ALL_JOBS;
    expect(templateKey(undefined, [first!, ...others])).toBe(before);
    expect(templateKey(undefined, others)).not.toBe(before);
    expect(templateKey(undefined, [{ ...first!, cron: '*/7 * * * *' }, ...others])).not.toBe(before);
  });

  it(`gives each database on ${engineName} every migration and the job queues, and none of another's rows`, async () => {
    const journal = JSON.parse(readFileSync(join(serverDir, 'drizzle/meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    const [first, second] = await Promise.all([
      engineDatabase(folder(), { migrated: true }),
      engineDatabase(folder(), { migrated: true }),
    ]);
    const a = new pg.Client({ connectionString: first.url });
    const b = new pg.Client({ connectionString: second.url });
    try {
      await a.connect();
      await b.connect();
      for (const client of [a, b]) {
        const migrations = await client.query('select count(*)::int as n from drizzle.__drizzle_migrations');
        expect(migrations.rows[0].n).toBe(journal.entries.length);
        const queues = await client.query('select name from pgboss.queue');
        expect(queues.rows.map((q) => q.name).sort()).toEqual(ALL_JOBS.map((job) => job.name).sort());
      }
      await a.query(
        "insert into spent_bot_challenges (signature, expires_at) values ('template-test', now())",
      );
      const seen = await b.query("select 1 from spent_bot_challenges where signature = 'template-test'");
      expect(seen.rowCount).toBe(0);
    } finally {
      await a.end();
      await b.end();
      await first.close();
      await second.close();
    }
  });
});
