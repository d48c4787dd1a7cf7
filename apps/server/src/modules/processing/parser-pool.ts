import os from 'node:os';
import type { FileKind } from '@werkwissen/shared';
import type { Extracted } from './extract/blocks.ts';
import { type ExtractRequest, type ParserLimits, ParserProcess } from './parser-process.ts';

/**
 * How many parser processes a worker runs: `PARSER_PROCESSES`, or with 0 one per core the machine offers, no more
 * than half its memory holds at PARSER_MEMORY_MB each, and at least one. Reading is most of a file's processing now
 * that indexing is cheap: on 2 cores, two parsers took bench:ingest's chain from about 2.0x to 1.5x extraction alone
 * on PostgreSQL and from 2.5x to 2.0x on PGlite (at a lower priority, they waited behind indexing: 2.1x and 2.5x).
 */
export function parserPoolSize(config: { PARSER_PROCESSES: number; PARSER_MEMORY_MB: number }): number {
  if (config.PARSER_PROCESSES > 0) return config.PARSER_PROCESSES;
  const byMemory = Math.floor(os.totalmem() / 2 / (config.PARSER_MEMORY_MB * 1024 * 1024));
  return Math.max(1, Math.min(os.availableParallelism(), byMemory));
}

/**
 * Parser processes, each reading one document at a time: a document goes to an idle process, or waits for the first
 * one to become idle. A process that crashed or was killed for a limit is started anew by its next document, so one
 * hostile file costs only its own run.
 */
export class ParserPool {
  private readonly idle: ParserProcess[];
  private readonly all: ParserProcess[];
  private readonly waiting: Array<(process: ParserProcess) => void> = [];

  /** How many documents are read at once. */
  readonly size: number;
  constructor(options: ParserLimits, size: number) {
    this.size = size;
    this.all = Array.from({ length: size }, () => new ParserProcess(options));
    this.idle = [...this.all];
  }

  /** The process ids of the running children (for tests and diagnostics). */
  get pids(): number[] {
    return this.all.flatMap((p) => (p.pid === undefined ? [] : [p.pid]));
  }

  /**
   * Starts every process ahead of the first document, each loading pdf.js (about a second of a 2-core machine) before
   * a document waits for it; resolves when all are ready. A process that fails to start is started again by its next
   * document.
   */
  async warm(): Promise<void> {
    await Promise.all(this.all.map((p) => p.warm().catch(() => {})));
  }

  async extract(path: string, kind: FileKind, request: ExtractRequest): Promise<Extracted> {
    const process = this.idle.pop() ?? (await new Promise<ParserProcess>((r) => this.waiting.push(r)));
    try {
      return await process.extract(path, kind, request);
    } finally {
      const next = this.waiting.shift();
      if (next) next(process);
      else this.idle.push(process);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((p) => p.close()));
  }
}
