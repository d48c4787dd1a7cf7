/**
 * API throughput benchmark: `npm run bench:api [-- --duration=N] [--database-url=postgres://...]` (or
 * BENCH_DURATION=N; default 10 s).
 *
 * Starts the real server (API + worker) on a throwaway embedded PGlite (and, with --database-url, again on a new
 * database of that PostgreSQL server, printed side by side) and, in the same process, a bare
 * Fastify 5 with one route as the ceiling: the most this Node version and this machine can answer at all.
 * autocannon (in a worker thread, so it does not share the server's event loop) keeps 50 connections busy
 * for a discarded ~2 s warm-up and then a measured run per scenario:
 *   a. ceiling  GET  /bare               bare Fastify, no plugins, no database
 *   b. me       GET  /api/v1/auth/me     session cookie: JWT check, the session's actor and the user's data (each
 *                                        read at most once a second per session, ActorCache), presenter
 *   c. health   GET  /api/v1/health      no session: what every request costs in our hooks (security headers,
 *                                        request id, guard, metrics, serializer) without the database
 *   d. login    POST /api/v1/auth/login  the failure slots (taken, then given back), argon2id password check (slow by
 *                                        design) and a new session row
 * Absolute figures depend on the machine (and the load generator shares it), so for b, c and d the figures are
 * also given relative to the ceiling measured in the same run: those ratios are what compare across machines
 * (autocannon records whole milliseconds, so the p50 ratio against a ~1 ms ceiling is coarse).
 * It prints figures only and asserts nothing about timing. Non-2xx answers, socket errors and the server's own
 * error log lines are reported per scenario; a server that cannot shut down in time is reported and exits 1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { signedInDataManager, startTestServer } from '../test/support/test-server.ts';
import { type BenchEngine, benchEngines } from './support/bench-engines.ts';

const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
const CLOSE_TIMEOUT_MS = 15_000;

function durationSeconds(): number {
  const flag = process.argv.find((a) => a.startsWith('--duration='))?.slice('--duration='.length);
  const raw = flag ?? process.env.BENCH_DURATION ?? '10';
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`invalid duration: ${raw}`);
  return value;
}

interface Scenario {
  name: string;
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  statusCodes: string;
  serverErrors: string[];
}

type LogEntry = { level?: number; msg?: string; err?: { message?: string; stack?: string } };

/** The server's log lines at level error or above, as their messages (and causes). */
function errorLines(lines: string[]): string[] {
  return lines.flatMap((line) => {
    try {
      const entry = JSON.parse(line) as LogEntry;
      if ((entry.level ?? 0) < 50) return [];
      const { stack = '', message = '' } = entry.err ?? {};
      const cause = /caused by: (.*)/.exec(stack)?.[1] ?? message.split('\n')[0];
      return [`${entry.msg ?? ''}${cause ? `: ${cause.slice(0, 160)}` : ''}`];
    } catch {
      return [];
    }
  });
}

async function measure(s: Scenario, duration: number, logs: string[]): Promise<Figures> {
  process.stdout.write(`${s.name}: warm-up ${WARMUP_SECONDS}s, measuring ${duration}s... `);
  const logStart = logs.length;
  const { name, ...request } = s;
  const fire = (seconds: number) =>
    autocannon({ ...request, connections: CONNECTIONS, duration: seconds, workers: 1 });
  await fire(WARMUP_SECONDS);
  const r = await fire(duration);
  const statusCodes = Object.entries(r.statusCodeStats ?? {})
    .map(([code, stat]) => `${code}:${stat.count ?? 0}`)
    .join(' ');
  process.stdout.write(`done (${r.requests.total} requests)\n`);
  return {
    name,
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    statusCodes,
    serverErrors: errorLines(logs.slice(logStart)),
  };
}

/** Runs a shutdown step, but gives up after CLOSE_TIMEOUT_MS so that a wedged server cannot hang the bench. */
async function closeWithin(name: string, close: () => Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CLOSE_TIMEOUT_MS);
  });
  const closed = await Promise.race([close().then(() => true), timeout]);
  clearTimeout(timer);
  if (!closed) console.log(`WARNING ${name} did not close within ${CLOSE_TIMEOUT_MS / 1000}s`);
  return closed;
}

function cookieHeader(cookies: Map<string, string>, name: string): string {
  const value = cookies.get(name);
  if (!value) throw new Error(`no ${name} cookie after login`);
  return `${name}=${value}`;
}

function printTable(rows: Figures[], ceiling: Figures): void {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'throughput', 'p50 latency'];
  const body = rows.map((r) => {
    const isCeiling = r === ceiling;
    return [
      r.name,
      r.rps.toFixed(1),
      r.p50.toFixed(2),
      r.p99.toFixed(2),
      String(r.non2xx),
      String(r.errors),
      isCeiling ? '(ceiling)' : `${(r.rps / ceiling.rps).toFixed(3)}x ceiling`,
      isCeiling ? '(ceiling)' : `${(r.p50 / Math.max(ceiling.p50, 0.001)).toFixed(1)}x ceiling`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) console.log(line(row));
}

/** Scenarios b and c against the real server on one engine. */
async function measureServer(
  engine: BenchEngine,
  duration: number,
): Promise<{ rows: Figures[]; closed: boolean }> {
  console.log(`\n=== ${engine.name} ===`);
  // Our own temp dir, removed below even if a wedged server never finishes closing.
  const dataDir = mkdtempSync(join(os.tmpdir(), 'ww-bench-'));
  const database = await engine.serverDatabase(dataDir);
  // Fifty connections sign one account in from one address at once. Each sign-in holds a failure slot until its
  // password is checked, so the product's limits (5 per account and address, 20 per address) would answer most of
  // them 429; this scenario measures sign-in throughput, so the limits are set out of its way.
  const t = await startTestServer({
    smtp: false,
    dataDir,
    env: {
      LOG_LEVEL: 'warn',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
      ...database.serverEnv,
    },
  });
  const rows: Figures[] = [];
  let closed = false;
  try {
    const { client, email, password } = await signedInDataManager(t);
    const scenarios: Scenario[] = [
      {
        name: `b. GET /api/v1/auth/me (${engine.name})`,
        url: `${t.url}/api/v1/auth/me`,
        method: 'GET',
        headers: { cookie: cookieHeader(client.cookies, 'ww_access') },
      },
      { name: `c. GET /api/v1/health (${engine.name})`, url: `${t.url}/api/v1/health`, method: 'GET' },
      {
        name: `d. POST /api/v1/auth/login (${engine.name})`,
        url: `${t.url}/api/v1/auth/login`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password, area: 'user' }),
      },
    ];
    for (const s of scenarios) rows.push(await measure(s, duration, t.logs));
  } finally {
    closed = await closeWithin('the server', () => t.close());
    closed = (await closeWithin(`the ${engine.name} database`, () => database.stop())) && closed;
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { rows, closed };
}

async function main(): Promise<boolean> {
  const duration = durationSeconds();
  const cpus = os.cpus();
  console.log(
    `machine: ${os.type()} ${os.release()} ${os.arch()}, ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), node ${process.version}`,
  );
  console.log(
    `load: autocannon, ${CONNECTIONS} connections, warm-up ${WARMUP_SECONDS}s (discarded), measured ${duration}s per scenario`,
  );

  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ status: 'ok' }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

  const rows: Figures[] = [];
  let closed = true;
  try {
    rows.push(
      await measure({ name: 'a. ceiling GET /bare', url: `${bareUrl}/bare`, method: 'GET' }, duration, []),
    );
    for (const engine of benchEngines()) {
      const result = await measureServer(engine, duration);
      rows.push(...result.rows);
      closed = result.closed && closed;
    }
  } finally {
    closed = (await closeWithin('the bare Fastify', () => bare.close())) && closed;
  }

  console.log('');
  printTable(rows, rows[0]!);
  const troubled = rows.filter((r) => r.non2xx > 0 || r.errors > 0 || r.serverErrors.length > 0);
  for (const r of troubled) {
    console.log(
      `WARNING ${r.name}: ${r.non2xx} non-2xx, ${r.errors} errors/timeouts; status codes: ${r.statusCodes}`,
    );
    if (r.serverErrors.length === 0) continue;
    const distinct = [...new Set(r.serverErrors)];
    console.log(`  server logged ${r.serverErrors.length} errors (${distinct.length} distinct), e.g.:`);
    for (const message of distinct.slice(0, 5)) console.log(`    ${message}`);
  }
  if (troubled.length === 0) console.log('all responses 2xx, no socket errors, no server errors logged');
  return closed;
}

main().then(
  (closed) => process.exit(closed ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
