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
 *                                        read at most once a second per session, ReadCache), presenter
 *   e. bare me  GET  /me-read            like with like for b: a bare Fastify in the same process, on the server's
 *                                        own pool, reading what /auth/me reads with the same statements (the
 *                                        session's actor with its rules, the user's data) through the same one-second
 *                                        cache, and answering the same JSON; none of our hooks, no cookie, no schema
 *   f. bare read GET /me-read?each       the same reads on every request (no cache): what the database costs
 *   c. health   GET  /api/v1/health      no session: what every request costs in our hooks (security headers,
 *                                        request id, guard, metrics, serializer) without the database
 *   d. login    POST /api/v1/auth/login  the failure slots (taken, then given back), argon2id password check (slow by
 *                                        design) and a new session row
 * Absolute figures depend on the machine (and the load generator shares it), so for b, c and d the figures are
 * also given relative to the ceiling measured in the same run, and b relative to e (same engine, measured in turns
 * so that a change of the machine's load weighs on both): those ratios are what compare across machines
 * (autocannon records whole milliseconds, so the p50 ratio against a ~1 ms ceiling is coarse).
 * It prints figures only and asserts nothing about timing. Non-2xx answers, socket errors and the server's own
 * error log lines are reported per scenario; a server that cannot shut down in time is reported and exits 1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import type { AppContext } from '../src/app-context.ts';
import { loadSessionActor } from '../src/core/actor.ts';
import { ReadCache } from '../src/db/read-cache.ts';
import { loadUserData } from '../src/modules/auth/me.presenter.ts';
import { signedInDataManager, startTestServer } from '../test/support/test-server.ts';
import { type BenchEngine, benchEngines } from './support/bench-engines.ts';
import { BENCH_SERVER_ENV } from './support/bench-kit.ts';

const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
/** Turns of the like-for-like pair (b and e), each a share of the duration. */
const ROUNDS = 4;
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
  /** The like-for-like baseline this row is compared with (b: e of the same engine). */
  baseline?: Figures;
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

const fire = (s: Scenario, seconds: number) => {
  const { name: _name, ...request } = s;
  return autocannon({ ...request, connections: CONNECTIONS, duration: seconds, workers: 1 });
};

/** The figures of one scenario from its measured runs (and the server's error lines meanwhile). */
function figuresOf(name: string, runs: autocannon.Result[], serverErrors: string[]): Figures {
  const codes = new Map<string, number>();
  for (const r of runs)
    for (const [code, stat] of Object.entries(r.statusCodeStats ?? {}))
      codes.set(code, (codes.get(code) ?? 0) + (stat.count ?? 0));
  const sum = (f: (r: autocannon.Result) => number) => runs.reduce((total, r) => total + f(r), 0);
  return {
    name,
    rps: sum((r) => r.requests.total) / sum((r) => r.duration),
    p50: sum((r) => r.latency.p50) / runs.length,
    p99: Math.max(...runs.map((r) => r.latency.p99)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors + r.timeouts),
    statusCodes: [...codes].map(([code, count]) => `${code}:${count}`).join(' '),
    serverErrors,
  };
}

async function measure(s: Scenario, duration: number, logs: string[]): Promise<Figures> {
  process.stdout.write(`${s.name}: warm-up ${WARMUP_SECONDS}s, measuring ${duration}s... `);
  const logStart = logs.length;
  await fire(s, WARMUP_SECONDS);
  const r = await fire(s, duration);
  process.stdout.write(`done (${r.requests.total} requests)\n`);
  return figuresOf(s.name, [r], errorLines(logs.slice(logStart)));
}

/**
 * Two scenarios measured in turns (ROUNDS each, `duration` in all per scenario), so that a change of the machine's
 * load during the run weighs on both alike: their ratio is what the like-for-like comparison reads.
 */
async function measureInTurns(
  a: Scenario,
  b: Scenario,
  duration: number,
  logs: string[],
): Promise<[Figures, Figures]> {
  process.stdout.write(`${a.name} and ${b.name}: warm-up ${WARMUP_SECONDS}s each, ${ROUNDS} turns... `);
  const logStart = logs.length;
  await fire(a, WARMUP_SECONDS);
  await fire(b, WARMUP_SECONDS);
  const runsA: autocannon.Result[] = [];
  const runsB: autocannon.Result[] = [];
  for (let turn = 0; turn < ROUNDS; turn++) {
    runsA.push(await fire(a, duration / ROUNDS));
    runsB.push(await fire(b, duration / ROUNDS));
  }
  process.stdout.write('done\n');
  return [figuresOf(a.name, runsA, errorLines(logs.slice(logStart))), figuresOf(b.name, runsB, [])];
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
  const header = [
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'non-2xx',
    'errors',
    'throughput',
    'p50 latency',
    'like for like',
  ];
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
      r.baseline ? `${(r.rps / r.baseline.rps).toFixed(3)}x ${r.baseline.name.split(' ')[0]}` : '',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) console.log(line(row));
}

/**
 * A bare Fastify beside the server that reads what `/auth/me` reads, with the same statements on the server's own
 * pool, and answers the same JSON (`?each`: without the one-second cache). Its `close` must run before the server's.
 */
async function startBareMe(
  ctx: AppContext,
  accessToken: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const verified = await ctx.signer.verifyAccess(accessToken);
  if (typeof verified !== 'object') throw new Error(`the access token is ${verified}`);
  const { userId, sessionId } = verified;
  const cache = new ReadCache();
  const read = async (cached: boolean) => {
    const through = <T>(key: string, load: () => Promise<T>) => (cached ? cache.get(key, load) : load());
    const actor = await through(`session:${sessionId}:${userId}`, () =>
      loadSessionActor(ctx.db, userId, sessionId),
    );
    if (!actor) throw new Error('the session is gone');
    return {
      userData: await through(`user:${userId}`, () => loadUserData(ctx, userId)),
      userRole: actor.kind,
      userAbilityRules: actor.rules,
      csrfToken: ctx.signer.csrfFor(sessionId),
      impersonation: null,
    };
  };
  const app = Fastify({ logger: false });
  app.get('/me-read', async (request) => read(!('each' in (request.query as Record<string, string>))));
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, close: () => app.close() };
}

/** Scenarios b to f against the real server on one engine. */
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
      ...BENCH_SERVER_ENV,
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
      ...database.serverEnv,
    },
  });
  const rows: Figures[] = [];
  let closed = false;
  try {
    const { client, email, password } = await signedInDataManager(t);
    const access = cookieHeader(client.cookies, 'ww_access');
    const bare = await startBareMe(t.server.ctx, access.slice('ww_access='.length));
    try {
      const served = await (await fetch(`${t.url}/api/v1/auth/me`, { headers: { cookie: access } })).text();
      const read = await (await fetch(`${bare.url}/me-read`)).text();
      console.log(`  /auth/me answers ${served.length} bytes, the bare read ${read.length} bytes`);
      const [me, bareMe] = await measureInTurns(
        {
          name: `b. GET /api/v1/auth/me (${engine.name})`,
          url: `${t.url}/api/v1/auth/me`,
          method: 'GET',
          headers: { cookie: access },
        },
        { name: `e. bare me GET /me-read (${engine.name})`, url: `${bare.url}/me-read`, method: 'GET' },
        duration,
        t.logs,
      );
      me.baseline = bareMe;
      rows.push(me, bareMe);
      rows.push(
        await measure(
          {
            name: `f. bare read GET /me-read?each (${engine.name})`,
            url: `${bare.url}/me-read?each`,
            method: 'GET',
          },
          duration,
          [],
        ),
      );
    } finally {
      await bare.close();
    }
    const scenarios: Scenario[] = [
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
