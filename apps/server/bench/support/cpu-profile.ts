import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fmt, printTable } from './bench-kit.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * This process's CPU profile (V8's sampling profiler through the inspector, 1 ms apart), taken around the phases
 * `start`/`stop` bracket: the server runs in this process, so it is the server's own work (API, worker, pool).
 */
export class CpuProfiler {
  readonly #session = new Session();
  readonly #profiles: Profile[] = [];

  async open(): Promise<void> {
    this.#session.connect();
    await this.#session.post('Profiler.enable');
    await this.#session.post('Profiler.setSamplingInterval', { interval: 1000 });
  }

  async start(): Promise<void> {
    await this.#session.post('Profiler.start');
  }

  async stop(): Promise<void> {
    const { profile } = await this.#session.post('Profiler.stop');
    this.#profiles.push(profile as Profile);
  }

  /** Writes each phase's profile as `<prefix>-<n>.cpuprofile` (Chrome DevTools opens them). */
  write(prefix: string): void {
    this.#profiles.forEach((p, i) => {
      writeFileSync(`${prefix}-${i + 1}.cpuprofile`, JSON.stringify(p));
    });
  }

  /** Prints the self time of the profiled phases by file and by function, per request, largest first. */
  print(requests: number, top = 25): void {
    const byFile = new Map<string, number>();
    const byFunction = new Map<string, number>();
    let total = 0;
    for (const profile of this.#profiles) {
      const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
      const samples = profile.samples ?? [];
      const deltas = profile.timeDeltas ?? [];
      for (let i = 0; i < samples.length; i++) {
        const node = nodes.get(samples[i]!);
        const ms = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
        if (!node || ms <= 0) continue;
        const { functionName, url, lineNumber } = node.callFrame;
        if (functionName === '(idle)') continue;
        total += ms;
        const file = shortUrl(url) || functionName;
        byFile.set(file, (byFile.get(file) ?? 0) + ms);
        const fn = `${functionName || '(anonymous)'} ${file}${url ? `:${lineNumber + 1}` : ''}`;
        byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
      }
    }
    console.log(
      `\nthe server process's CPU profile of the product phases: ${fmt(total, 0)} ms busy, ` +
        `${fmt(total / requests, 1)} ms per request (self time; sampled every 1 ms)`,
    );
    const rows = (m: Map<string, number>) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([name, ms]) => [name.slice(0, 100), fmt(ms / requests, 2), `${fmt((ms / total) * 100, 1)}%`]);
    printTable(['file', 'ms/req', 'share'], rows(byFile));
    printTable(['function', 'ms/req', 'share'], rows(byFunction));
  }

  close(): void {
    this.#session.disconnect();
  }
}

/** A script's address as a path from the current folder, node_modules shortened to the package. */
function shortUrl(url: string): string {
  if (!url) return '';
  const path = url.startsWith('file://') ? decodeURIComponent(url.slice(7)) : url;
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) return `npm:${path.slice(modules + 14)}`;
  return path.startsWith('/') ? relative(process.cwd(), path) : path;
}
