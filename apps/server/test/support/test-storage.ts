import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { parseConfig } from '@werkwissen/shared';
import type { ServerConfig } from '../../src/config/load-config.ts';
import { FakeS3 } from './fake-s3.ts';
import { TEST_SECRETS } from './test-database.ts';

/**
 * The storage pass of the file tests: with TEST_STORAGE=s3 (the `server-s3` project of vitest.config.ts) a test
 * server keeps its files in a bucket of the S3 test double instead of the folder `files` in its data folder.
 */
export const onS3 = process.env.TEST_STORAGE === 's3';

export interface TestStorage {
  /** What a server's environment needs to use this store (nothing for the local folder). */
  env: Record<string, string>;
  /** The keys of the stored objects that start with `prefix`, staged uploads aside, sorted. */
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

async function localKeys(root: string, prefix: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((key) => key.startsWith(prefix) && !key.startsWith('tmp/'))
    .sort();
}

/** The store of a test server whose data folder is `dataDir`: an S3 double of its own, or its local folder. */
export async function startTestStorage(dataDir: string): Promise<TestStorage> {
  if (!onS3)
    return {
      env: {},
      keys: (prefix = '') => localKeys(join(dataDir, 'files'), prefix),
      close: async () => {},
    };
  const s3 = new FakeS3();
  await s3.start();
  return { env: s3.env(), keys: (prefix) => s3.keys(prefix), close: () => s3.stop() };
}

/** The configuration of a server with the data folder `dataDir` and the environment `env`, as the start reads it. */
export function storageConfig(dataDir: string, env: Record<string, string> = {}): ServerConfig {
  const parsed = parseConfig({ DATA_DIR: dataDir, ...env });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return { ...parsed.config, dataDir, secrets: TEST_SECRETS };
}
