import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One data-access layer (issue 32): raw SQL (`db.execute(...)`, a `sql` tagged template) lives only in an entity's
 * query module (`<entity>.queries.ts`, beside the service that owns the entity), in `access/` (rules compiled into
 * SQL), in `db/` (connection, schema, migrations, the embedded engine) and in `modules/search/`. Services call
 * query functions that take typed input and return domain types, and read as business steps.
 */
const src = new URL('../src/', import.meta.url).pathname;

/** Where raw SQL belongs. */
const allowed = (path: string) => path.endsWith('.queries.ts') || /^(access|db|modules\/search)\//.test(path);

/** `.execute(` or a `sql` tagged template, also with a type argument (`sql<number>\`...\``). */
const RAW_SQL = /\.execute\(|\bsql(?:<[^`]*?>)?`/;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative(src, path)] : [];
  });
}

describe('data access', () => {
  const files = sourceFiles(src);
  const withRawSql = files.filter(
    (path) => !allowed(path) && RAW_SQL.test(readFileSync(join(src, path), 'utf8')),
  );

  it('finds the server source and the raw SQL in it', () => {
    expect(files).toContain('access/rule-sql.ts');
    expect(RAW_SQL.test(readFileSync(join(src, 'access/rule-sql.ts'), 'utf8'))).toBe(true);
  });

  it('keeps raw SQL in query modules, access/, db/ and search', () => {
    expect(withRawSql).toEqual([]);
  });
});
