import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGINE_FREE_FILES } from './engine-free-files.ts';

const serverDir = new URL('../', import.meta.url).pathname;

/** What a test uses to reach a database: a test server or database, a server process, the engine itself. */
const DATABASE_IMPORTS =
  /from '[^']*(support\/(test-server|test-database|database-template|factories|knowledge)|db\/database|db\/embedded|@electric-sql)[^']*'/;
const DATABASE_CALLS =
  /\b(startTestServer|startAppServer|spawnServer|processesPerTest|engineDatabase|engineEnv|migratedDatabase|createTestDatabase|openDatabase|startEmbeddedDatabase|startPgliteServer)\b/;

describe('the engine-free server tests (run in one integration pass only)', () => {
  it('exist and open no database', () => {
    const offending = ENGINE_FREE_FILES.filter((file) => {
      const path = `${serverDir}${file}`;
      if (!existsSync(path)) return true;
      const source = readFileSync(path, 'utf8');
      return DATABASE_IMPORTS.test(source) || DATABASE_CALLS.test(source);
    });
    expect(offending).toEqual([]);
  });
});
