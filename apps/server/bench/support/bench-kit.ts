/**
 * Small shared pieces of the benchmarks and checks: command-line flags, percentiles, plain-text tables, the machine
 * line, the server's error log lines and a bounded shutdown. Figures only: nothing here asserts anything.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { CONFIG_DEFAULTS } from '@werkwissen/shared';
import { TEST_SERVER_ENV } from '../../test/support/processes.ts';

/**
 * The value of `--name=value` or `--name value` on the command line, else undefined. A bare `--name` (no value)
 * answers the empty string.
 */
export function flag(name: string, argv: string[] = process.argv.slice(2)): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
    if (arg === `--${name}`) {
      const next = argv[i + 1];
      return next !== undefined && !next.startsWith('--') ? next : '';
    }
  }
  return undefined;
}

/** Arguments that are neither flags nor a flag's value (`--name value`). */
export function positionals(valueFlags: string[], argv: string[] = process.argv.slice(2)): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      if (!arg.includes('=') && valueFlags.includes(arg.slice(2))) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** A positive integer flag, or the default; a malformed value stops the run. */
export function intFlag(name: string, fallback: number): number {
  const raw = flag(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`invalid --${name}: ${raw}`);
  return value;
}

/**
 * A path given on the command line, resolved against the directory npm was started in (`npm run x --workspace` runs
 * the script inside the workspace, but the user typed the path relative to where they were).
 */
export function userPath(path: string): string {
  return isAbsolute(path) ? path : resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

/** The nearest-rank percentile (p in 0..100) of unsorted samples; NaN for none. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export const mean = (samples: number[]) =>
  samples.length === 0 ? Number.NaN : samples.reduce((a, b) => a + b, 0) / samples.length;

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

export const mb = (bytes: number) => bytes / 1024 / 1024;

/** Left-aligned first column, right-aligned numbers (or left-aligned columns when `alignLeft` names them). */
export function printTable(header: string[], rows: string[][], alignLeft: number[] = [0]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (alignLeft.includes(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

export function machineLine(): string {
  const cpus = os.cpus();
  return `machine: ${os.type()} ${os.release()} ${os.arch()}, ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${Math.round(os.totalmem() / 1024 ** 3)} GB RAM, node ${process.version}`;
}

/** The code measured: the commit, and whether the working tree differs from it (figures compare per revision). */
export function revisionLine(): string {
  try {
    const run = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: 'pipe' }).trim();
    const changed = run(['status', '--porcelain', '--untracked-files=no']).split('\n').filter(Boolean).length;
    return `code: ${run(['log', '-1', '--format=%h %s'])}${changed ? ` (+${changed} changed files)` : ''}`;
  } catch {
    return 'code: (not a git checkout)';
  }
}

/** Runs `cleanup` (synchronously) and exits 130 on Ctrl+C or SIGTERM, so that temp folders do not pile up. */
export function onInterrupt(cleanup: () => void): void {
  const stop = (signal: NodeJS.Signals) => {
    console.log(`\n${signal}: cleaning up`);
    try {
      cleanup();
    } finally {
      process.exit(130);
    }
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

type LogEntry = { level?: number; msg?: string; err?: { message?: string; stack?: string } };

/** The server's log lines at level error or above, as their messages (and causes). */
export function errorLines(lines: string[], minLevel = 50): string[] {
  return lines.flatMap((line) => {
    try {
      const entry = JSON.parse(line) as LogEntry;
      if ((entry.level ?? 0) < minLevel) return [];
      const { stack = '', message = '' } = entry.err ?? {};
      const cause = /caused by: (.*)/.exec(stack)?.[1] ?? message.split('\n')[0];
      return [`${entry.msg ?? ''}${cause ? `: ${cause.slice(0, 160)}` : ''}`];
    } catch {
      return [];
    }
  });
}

/** Prints at most `max` distinct messages of a list, with how many there were. */
export function printDistinct(title: string, messages: string[], max = 5): void {
  if (messages.length === 0) return;
  const distinct = [...new Set(messages)];
  console.log(`${title}: ${messages.length} (${distinct.length} distinct), e.g.:`);
  for (const message of distinct.slice(0, max)) console.log(`  ${message}`);
}

/** Runs a shutdown step, but gives up after `timeoutMs` so that a wedged server cannot hang the run. */
export async function closeWithin(
  name: string,
  close: () => Promise<void>,
  timeoutMs = 15_000,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const closed = await Promise.race([close().then(() => true), timeout]);
  clearTimeout(timer);
  if (!closed) console.log(`WARNING ${name} did not close within ${timeoutMs / 1000}s`);
  return closed;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Seconds since a performance.now() start, for progress lines. */
export const since = (start: number) => (performance.now() - start) / 1000;

/**
 * The environment of a benchmark's server besides its database: quiet logs, and the product's defaults where the
 * test servers change them (`TEST_SERVER_ENV`: no parser process ahead of the first document, the embedded
 * database's WebAssembly left unoptimised), so that a benchmark measures what an installation runs.
 */
export const BENCH_SERVER_ENV: Record<string, string> = {
  LOG_LEVEL: 'warn',
  ...Object.fromEntries(
    Object.keys(TEST_SERVER_ENV).map((key) => [key, CONFIG_DEFAULTS[key as keyof typeof CONFIG_DEFAULTS]]),
  ),
};
