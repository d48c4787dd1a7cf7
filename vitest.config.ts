import { configDefaults, defineConfig } from 'vitest/config';

/**
 * With TEST_DATABASE_URL the server and browser tests run on that PostgreSQL (see scripts/test.mjs). Some tests are
 * about one engine: the embedded default's start-up, process, queue and backup; and what only a server with sessions
 * does (`*.postgres.test.ts`).
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const engineExclude = [
  ...configDefaults.exclude,
  ...(onPostgres
    ? ['test/start-up.test.ts', 'test/backup-restore.test.ts', 'src/db/embedded/**']
    : ['**/*.postgres.test.ts']),
];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: engineExclude,
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
          fileParallelism: true,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'e2e',
          root: './e2e',
          include: ['**/*.e2e.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
