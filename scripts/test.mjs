#!/usr/bin/env node
/**
 * The whole test suite, as one command (`npm test`): lint and format, type-check, generated files up to date, the
 * web build, then, side by side, the unit tests, the integration tests on the embedded PGlite and again on PostgreSQL
 * when TEST_DATABASE_URL names one (CI always does; `scripts/test-postgres.sh` starts a throwaway one), and the
 * browser tests (vitest, in Debian's Chromium) once, on PGlite. Ends with each step's time (with its CPU for those
 * run beside the others) and one "N passed, N failed" line; with TEST_STEP_TIMES set, also appends each step's
 * seconds and name to that file (.ci/run prints them in its phase times).
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  cpSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const results = [];

/**
 * Node's compile cache (code compiled once, read back by the next process) for every process of the run: the vitest
 * processes, the test servers they spawn (test/support/processes.ts passes it on) and their databases. The same
 * modules are evaluated by each pass and by every spawned server; in the clone's node_modules, gone with it.
 */
process.env.NODE_COMPILE_CACHE ??= join(root, 'node_modules', '.cache', 'node-compile-cache');

/** Records a finished step with the seconds from `started` to `ended` (`performance.now()` values), and its CPU. */
function finished(name, ok, started, ended = performance.now(), cpu = null) {
  const seconds = Math.round((ended - started) / 1000);
  results.push({ name, ok, seconds, cpu });
  if (process.env.TEST_STEP_TIMES) appendFileSync(process.env.TEST_STEP_TIMES, `${seconds}\t${name}\n`);
}

function step(name, command, args, options = {}) {
  process.stdout.write(`\n▶ ${name}\n`);
  const started = performance.now();
  const run = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...options.env },
  });
  const ok = run.status === 0;
  finished(name, ok, started);
  if (!ok) process.stdout.write(`✖ ${name} failed (exit ${run.status})\n`);
  return ok;
}

/**
 * Runs `command` under bash, which writes the CPU seconds of everything it started (user and system, counted by the
 * kernel for each process once its parent has waited for it: the vitest workers, the servers and databases they
 * start, Chromium) to a file when it ends. The steps run side by side on CI's two cores: their wall times say little
 * about what each costs, their CPU does. Returns the spawn arguments and a function that reads the figures.
 */
function measured(command, args) {
  const file = join(mkdtempSync(join(tmpdir(), 'ww-cpu-')), 'times');
  const script = '"$@"; status=$?; times > "$0"; exit $status';
  return {
    command: 'bash',
    args: ['-c', script, file, command, ...args],
    cpu() {
      if (!existsSync(file)) return null;
      // `times`: the shell's own user and system time, then its children's, as 1m2.345s.
      const children = readFileSync(file, 'utf8').trim().split('\n')[1] ?? '';
      const seconds = children.split(/\s+/).map((t) => {
        const m = /^(\d+)m([\d.]+)s$/.exec(t);
        return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
      });
      return seconds.length === 2 && seconds.every(Number.isFinite)
        ? { user: Math.round(seconds[0]), system: Math.round(seconds[1]) }
        : null;
    },
  };
}

/** Starts a step beside the others, its output in a file; resolves when it ends, to be recorded by `endStep`. */
function startStep(name, command, args) {
  const log = join(mkdtempSync(join(tmpdir(), 'ww-step-')), 'output.log');
  process.stdout.write(
    `\n▶ ${name} (alongside; its output follows when it ends, and is in ${log} meanwhile)\n`,
  );
  const started = performance.now();
  const output = openSync(log, 'w');
  const run = measured(command, args);
  const child = spawn(run.command, run.args, { cwd: root, stdio: ['ignore', output, output] });
  return new Promise((resolve) => {
    child.on('close', (status) => {
      closeSync(output);
      resolve({ name, status, log, started, ended: performance.now(), cpu: run.cpu() });
    });
  });
}

function endStep({ name, status, log, started, ended, cpu }) {
  process.stdout.write(`\n▶ ${name} (its output)\n`);
  process.stdout.write(readFileSync(log));
  const ok = status === 0;
  finished(name, ok, started, ended, cpu);
  if (!ok) process.stdout.write(`✖ ${name} failed (exit ${status})\n`);
}

/**
 * Generates migrations from the schema into a copy of `apps/server/drizzle`: nothing new may come out. The copy is a
 * folder inside apps/server named relatively, since drizzle-kit reads its `out` as relative to the config (an
 * absolute one made it crash reading `.//tmp/...`, which exited 0 and changed nothing: the check could not fail).
 */
function migrationsUpToDate() {
  process.stdout.write('\n▶ migrations match the schema\n');
  const started = performance.now();
  const serverDir = join(root, 'apps/server');
  const out = mkdtempSync(join(serverDir, '.drizzle-check-'));
  try {
    cpSync(join(serverDir, 'drizzle'), out, { recursive: true });
    const before = readdirSync(out).length;
    const run = spawnSync('npx', ['drizzle-kit', 'generate'], {
      cwd: serverDir,
      env: { ...process.env, DRIZZLE_OUT: `./${relative(serverDir, out)}` },
      encoding: 'utf8',
    });
    const ok = run.status === 0 && /No schema changes/.test(run.stdout) && readdirSync(out).length === before;
    if (!ok)
      process.stdout.write(
        `${run.stdout}${run.stderr}\n✖ the schema changed without a migration: run "npm run db:generate -w apps/server"\n`,
      );
    finished('migrations match the schema', ok, started);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The browser tests need Chromium: CHROMIUM_PATH, else Debian's /usr/bin/chromium, installed here when we can. */
function findChromium() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(path)) return path;
  const root = process.getuid?.() === 0;
  if (root && existsSync('/usr/bin/apt-get')) {
    process.stdout.write('\n▶ installing Chromium for the browser tests (apt-get install chromium)\n');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], {
      stdio: 'inherit',
      env,
    });
    if (existsSync(path)) return path;
  }
  process.stderr.write(
    `\nChromium is needed for the browser tests and was not found at ${path}.\n` +
      'Install it with:  sudo apt-get install chromium   (or set CHROMIUM_PATH to a Chromium binary)\n',
  );
  process.exit(1);
}

const chromium = findChromium();
step('lint and format (biome)', 'npx', ['biome', 'check', '--error-on-warnings', '.']);
/** The type-check runs beside the rest (its output is shown when it ends): nothing after it reads what it checks. */
const typeCheck = startStep('type-check', 'npm', ['run', 'typecheck']);
migrationsUpToDate();

step('build the web app', 'npm', ['run', 'build']);

const UNIT_PASS = 'unit tests of the shared package and the web app (vitest)';
const PGLITE_PASS = 'integration tests on PGlite (vitest)';
const BROWSER_PASS = 'browser tests on PGlite (vitest)';
const POSTGRES_PASS = 'integration tests on PostgreSQL (vitest)';

const counts = { passed: 0, failed: 0 };
/** Every failed test of both passes, repeated under the summary: a CI log is often read from its end only. */
const failures = [];

/**
 * Starts a vitest pass; `log`: its output goes to that file instead of this one's (a pass run beside another, whose
 * lines would otherwise interleave). Resolves to what `recordPass` needs.
 */
function startVitest(name, args, env, log) {
  process.stdout.write(
    `\n▶ ${name}${log ? ` (alongside; its output follows, and is in ${log} meanwhile)` : ''}\n`,
  );
  const folder = mkdtempSync(join(tmpdir(), 'ww-vitest-'));
  const json = join(folder, 'report.json');
  const started = performance.now();
  const output = log ? openSync(log, 'w') : 'inherit';
  const run = measured('npx', [
    'vitest',
    'run',
    ...args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${json}`,
  ]);
  const child = spawn(run.command, run.args, {
    cwd: root,
    stdio: ['ignore', output, output],
    env: { ...process.env, CHROMIUM_PATH: chromium, ...env },
  });
  return new Promise((resolve) => {
    child.on('close', (status) => {
      if (log) closeSync(output);
      resolve({ name, status, json, log, started, ended: performance.now(), cpu: run.cpu() });
    });
  });
}

/** Records a finished pass: its output when it went to a file, its counts and every failed test. */
function recordPass({ name, status, json: report, log, started, ended, cpu }) {
  if (log) {
    process.stdout.write(`\n▶ ${name} (its output)\n`);
    process.stdout.write(readFileSync(log));
  }
  const ok = status === 0;
  finished(name, ok, started, ended, cpu);
  if (!ok) process.stdout.write(`✖ ${name} failed (exit ${status})\n`);
  let passed = 0;
  let failed = 0;
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed = json.numPassedTests;
    failed = json.numFailedTests + json.numPendingTests + json.numTodoTests;
    for (const file of json.testResults) {
      const where = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
      const tests = file.assertionResults.filter((t) => t.status !== 'passed');
      for (const t of tests) {
        // A time-out reaches the JSON report without its message (vitest writes STACK_TRACE_ERROR): the duration tells.
        const reason = t.status === 'failed' ? (t.failureMessages[0] ?? '').split('\n')[0] : t.status;
        const after = t.duration ? ` (after ${(t.duration / 1000).toFixed(1)} s)` : '';
        failures.push(`${name}: ${where} > ${t.fullName}\n      ${reason.slice(0, 700)}${after}`);
      }
      // A file that fails to load has no test results, only its own message.
      if (tests.length === 0 && file.status === 'failed')
        failures.push(`${name}: ${where}\n      ${(file.message ?? '').split('\n')[0].slice(0, 300)}`);
    }
  }
  // A run that failed without a failed test (a file that does not load, a crash) still counts as one failure.
  if (!ok && failed === 0) failed = 1;
  counts.passed += passed;
  counts.failed += failed;
  process.stdout.write(`${name}: ${passed} passed, ${failed} failed\n`);
}

/**
 * The passes run side by side: much of each pass waits (on a browser, a job's poll, a model's stream) rather than
 * computes. The unit tests need no database: in a pass of their own from the start. The server's integration tests
 * run on each engine. The browser tests run once (decision 0085), on the embedded PGlite that the quick start runs,
 * in a process of their own from the start: what they add to the integration tests is the browser and the built
 * app, and an installation's default engine is where a page meets one database session serving every request.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
const passLog = (name) => join(mkdtempSync(join(tmpdir(), 'ww-vitest-')), name);
const unitPass = startVitest(
  UNIT_PASS,
  ['--project', 'shared', '--project', 'web'],
  { TEST_DATABASE_URL: '' },
  passLog('unit-pass.log'),
);
const browserPass = startVitest(
  BROWSER_PASS,
  ['--project', 'e2e'],
  { TEST_DATABASE_URL: '' },
  passLog('browser-pass.log'),
);
/**
 * The uploads and processing tests with their files in the S3 double (`server-s3`) are about the file store, not the
 * engine: beside PostgreSQL they run once, in its pass; without it, on PGlite.
 */
const pglitePass = startVitest(
  PGLITE_PASS,
  ['--project', 'server', ...(postgresUrl ? [] : ['--project', 'server-s3'])],
  // The server tests that open no database (apps/server/test/engine-free-files.ts) run in PostgreSQL's pass only.
  { TEST_DATABASE_URL: '', TEST_ENGINE_FREE_ELSEWHERE: postgresUrl ? '1' : '' },
);
const postgresPass = postgresUrl
  ? startVitest(
      POSTGRES_PASS,
      // Which files are about one engine only is in vitest.config.ts.
      ['--project', 'server', '--project', 'server-s3'],
      { TEST_DATABASE_URL: postgresUrl },
      passLog('postgres-pass.log'),
    )
  : null;
endStep(await typeCheck);
recordPass(await pglitePass);
recordPass(await unitPass);
recordPass(await browserPass);
if (postgresPass) {
  recordPass(await postgresPass);
} else if (process.env.CI) {
  process.stdout.write(`\n✖ ${POSTGRES_PASS}: CI needs TEST_DATABASE_URL (.ci/run starts a PostgreSQL)\n`);
  results.push({ name: POSTGRES_PASS, ok: false, seconds: 0 });
  counts.failed++;
} else {
  process.stdout.write(
    `\n⚠ ${POSTGRES_PASS}: skipped, TEST_DATABASE_URL is not set.\n` +
      '  To run it: eval "$(bash scripts/test-postgres.sh)" && export TEST_DATABASE_URL && npm test\n' +
      "  (needs Debian's postgresql-15; pgvector is built from ../shared/vendor when missing)\n",
  );
}

const passed = counts.passed;
let failed = counts.failed;
const passes = [UNIT_PASS, PGLITE_PASS, BROWSER_PASS, POSTGRES_PASS];
for (const r of results) if (!r.ok && !passes.includes(r.name)) failed++;

process.stdout.write('\nSummary:\n');
for (const r of results) {
  const cpu = r.cpu ? `, CPU ${r.cpu.user} s user + ${r.cpu.system} s system` : '';
  process.stdout.write(`  ${r.ok ? '✔' : '✖'} ${r.name} (${r.seconds} s${cpu})\n`);
}
if (failures.length > 0) process.stdout.write(`\nFailed:\n${failures.map((f) => `  ✖ ${f}`).join('\n')}\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 && results.every((r) => r.ok) ? 0 : 1);
