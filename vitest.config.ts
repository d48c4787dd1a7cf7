import { configDefaults, defineConfig } from 'vitest/config';
import { ENGINE_FREE_FILES } from './apps/server/test/engine-free-files.ts';
import { localeParts } from './apps/web/vite-locale-parts.ts';
import { LongestFirst } from './scripts/test-order.ts';

/**
 * With TEST_DATABASE_URL the server and browser tests run on that PostgreSQL (see scripts/test.mjs). Some tests are
 * about one engine: the embedded default's start-up, process, queue and backup; and what only a server with sessions
 * does (`*.postgres.test.ts`).
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/**
 * The server tests that open no database run in one integration pass: `npm test` sets TEST_ENGINE_FREE_ELSEWHERE for
 * PGlite's pass when PostgreSQL's runs them (apps/server/test/engine-free-files.ts).
 */
const engineFreeElsewhere = process.env.TEST_ENGINE_FREE_ELSEWHERE === '1';
const engineExclude = [
  ...configDefaults.exclude,
  ...(onPostgres
    ? ['test/start-up.test.ts', 'test/backup-restore.test.ts', 'src/db/embedded/**']
    : ['**/*.postgres.test.ts']),
  ...(engineFreeElsewhere ? ENGINE_FREE_FILES : []),
];

/**
 * The tests of uploads, downloads and processing run a second time with their files in the S3 test double
 * (`TEST_STORAGE=s3`, test/support/test-storage.ts); the rest of the suite does not touch the file store.
 */
const STORAGE_TESTS = [
  'src/modules/files/files.test.ts',
  'src/modules/files/files-bad-input.test.ts',
  'test/processing-crash.test.ts',
];

/**
 * The libraries the web app and its tests import, bundled by Vite's optimizer for the web tests, React with them so
 * that there is one copy of it.
 */
const WEB_TEST_BUNDLES = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  '@testing-library/react',
  '@mui/material',
  '@mui/material/*',
  '@mui/x-charts/*',
  '@mui/stylis-plugin-rtl',
  '@emotion/react',
  '@emotion/styled',
  '@emotion/cache',
  'stylis',
  '@tabler/icons-react',
  '@tanstack/react-query',
  'react-router',
  'react-hook-form',
  '@hookform/resolvers/zod',
  'react-joyride',
  'mui-tel-input',
  'libphonenumber-js',
  'i18next',
  'react-i18next',
  '@casl/ability',
];

/** Builds the migrated database every test server starts from a copy of (apps/server/test/support/database-template.ts). */
const databaseTemplate = new URL('./apps/server/test/support/global-setup.ts', import.meta.url).pathname;

const server = {
  root: './apps/server',
  globalSetup: [databaseTemplate],
  environment: 'node',
  // Two minutes a test: on CI's two cores beside the other passes (load 12 to 16) a test gets a small share of a core,
  // and a test that takes 10 s on an idle machine took over 60 there. A test that hangs still fails, later.
  testTimeout: 120_000,
  hookTimeout: 180_000,
  pool: 'forks',
  // A worker runs file after file in one module graph: the server's modules are evaluated once per worker, not once
  // per file (18 % of a pass was imports). A file must leave no state behind for the next (no vi.mock, no
  // vi.stubEnv, no process.env writes); full runs on both engines found one such leak, now closed (decision 0064).
  isolate: false,
  maxWorkers: 2,
  fileParallelism: true,
  sequence: { groupOrder: 1 },
} as const;

export default defineConfig({
  test: {
    // The longest files first in each pass (decision 0092).
    sequence: { sequencer: LongestFirst },
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
          ...server,
          name: 'server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: engineExclude,
        },
      },
      {
        test: {
          ...server,
          name: 'server-s3',
          include: STORAGE_TESTS,
          exclude: engineExclude,
          env: { TEST_STORAGE: 's3' },
        },
      },
      {
        // The locale parts the app's i18n imports (`apps/web/vite-locale-parts.ts`).
        plugins: [localeParts()],
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['./src/test/setup.ts'],
          // Waits of 10 s each (src/test/setup.ts): a test has room for a few.
          testTimeout: 60_000,
          // Each web test file imports the app's libraries anew (isolated: mocks and globals stay in their file):
          // bundled once per run into a file each, they load in a third less CPU (decision 0090).
          deps: { optimizer: { client: { enabled: true, include: WEB_TEST_BUNDLES } } },
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'e2e',
          root: './e2e',
          include: ['**/*.e2e.test.ts'],
          environment: 'node',
          // A browser test is a whole flow (sign-up, upload, processing, an answer): on CI's loaded two cores the two
          // longest (chat, guided tour) ran past 180 s. Five minutes; one that hangs still fails.
          testTimeout: 300_000,
          hookTimeout: 180_000,
          // A poll reads the page through Playwright, whose reads wait for their element: vitest 5 cuts such a read
          // off at the poll's timeout (vitest 4 let it finish), so a page slower than 1 s under load failed.
          expect: { poll: { timeout: 15_000 } },
          globalSetup: [databaseTemplate],
          pool: 'forks',
          // Two files at a time, each with its own server and Chromium: a browser file mostly waits (on the page, the
          // server's jobs), 27 s of CPU in 83 s on average in CI's run of 66d01a2, one at a time the pass that ended
          // last (decision 0092).
          maxWorkers: 2,
          fileParallelism: true,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
