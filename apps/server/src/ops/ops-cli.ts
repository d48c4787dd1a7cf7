import { resolve } from 'node:path';
import { formatConfigErrors, parseConfig } from '@werkwissen/shared';
import { readEnv } from '../config/load-config.ts';
import { DataDirLockedError } from '../db/embedded/data-dir-lock.ts';
import { BackupError } from './embedded-backup.ts';

function fail(line: string, code = 1): never {
  process.stderr.write(`${line}\n`);
  process.exit(code);
}

/**
 * Runs `npm run backup` or `npm run restore` with one folder argument against the configured DATA_DIR (from the
 * environment and `.env`, like the server). With DATABASE_URL there is nothing embedded to copy: it says how
 * PostgreSQL is backed up instead.
 */
export async function runOpsCommand(
  usage: string,
  run: (dataDir: string, folder: string) => Promise<string>,
): Promise<void> {
  const folder = process.argv[2];
  if (!folder) fail(`Usage: ${usage}`, 2);
  // The raw settings only: loading the configuration would generate secrets into an empty DATA_DIR.
  const parsed = parseConfig(readEnv(process.cwd()));
  if (!parsed.ok) fail(formatConfigErrors(parsed.errors));
  const config = parsed.config;
  if (config.DATABASE_URL)
    fail(
      'DATABASE_URL is set: this installation keeps its data in PostgreSQL. Back it up with pg_dump and restore it with pg_restore, together with the files folder (see "Backup and restore" in the README).',
      2,
    );
  try {
    process.stdout.write(`${await run(resolve(config.DATA_DIR), resolve(folder))}\n`);
  } catch (error) {
    if (error instanceof BackupError || error instanceof DataDirLockedError) fail(error.message);
    throw error;
  }
}
