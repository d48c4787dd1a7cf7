import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FileFailureCode, FileKind } from '@werkwissen/shared';
import { type Extracted, ExtractionError } from './extract/blocks.ts';
import type { OcrOptions, OnProgress } from './extract/ocr.ts';

const childScript = fileURLToPath(new URL('./parse-child.ts', import.meta.url));

interface Pending {
  /** The child reading the document: only its end fails the document. */
  child: ChildProcess;
  resolve(value: Extracted): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  onProgress?: OnProgress;
}

/** What a document is read with: OCR settings, and who hears of each page OCR has read. */
export interface ExtractRequest {
  ocr: OcrOptions;
  onProgress?: OnProgress;
}

export interface ParserLimits {
  memoryMb: number;
  timeoutMs: number;
}

/**
 * One long-lived parser child process with a memory limit, given one document at a time by the pool. A document
 * that runs out of time or memory ends with FILE_PARSE_LIMIT and the child is replaced on the next call; the worker
 * itself never parses. The time limit counts from the start or from the last page OCR read, so a long scan that keeps
 * going is not cut.
 */
export class ParserProcess {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  private readonly options: ParserLimits;
  constructor(options: ParserLimits) {
    this.options = options;
  }

  /** The process id of the running child (none before the first document or after a crash). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private start(warmUp = false): Promise<void> {
    const child = fork(childScript, warmUp ? ['--warm-up'] : [], {
      execArgv: [`--max-old-space-size=${this.options.memoryMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // Its own process group, which the OCR programs it runs join: stopping the group stops them with it.
      detached: true,
    });
    this.child = child;
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    const ready = new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`parser process exited at start (${code}): ${stderr}`)));
      child.once('error', (error) => reject(error));
    });
    child.on(
      'message',
      (message: {
        id?: number;
        ok?: boolean;
        result?: Extracted;
        /** The ExtractionError code the child caught (parse-child.ts). */
        code?: FileFailureCode;
        detail?: string;
        progress?: { done: number; total: number };
      }) => {
        if (message.id === undefined) return;
        const pending = this.pending.get(message.id);
        if (!pending) return;
        if (message.progress) {
          pending.timer.refresh();
          pending.onProgress?.(message.progress.done, message.progress.total);
          return;
        }
        this.pending.delete(message.id);
        clearTimeout(pending.timer);
        if (message.ok) pending.resolve(message.result!);
        else pending.reject(new ExtractionError(message.code!, message.detail));
      },
    );
    const ended = (reason: string) => {
      // An OCR program of a child that crashed would run on for nothing.
      stopGroup(child);
      this.forget(child);
      for (const [id, pending] of this.pending) {
        if (pending.child !== child) continue;
        clearTimeout(pending.timer);
        this.pending.delete(id);
        pending.reject(new ExtractionError('FILE_PARSE_LIMIT', `${reason}: ${stderr.slice(-300)}`));
      }
    };
    child.on('exit', (code, signal) => ended(`parser process ended (code ${code}, signal ${signal})`));
    // A message to a child that has just died fails (EPIPE), and its exit follows; a child that could not be started
    // (no process id) may have no exit to wait for.
    child.on('error', (error) => {
      if (child.pid === undefined) ended(`parser process not started (${error.message})`);
    });
    return ready;
  }

  /** Lets go of a child that is stopping, unless a newer one has replaced it already. */
  private forget(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = null;
    this.ready = null;
  }

  /**
   * Starts the child ahead of its first document, loading pdf.js before it reports ready. A child that a document
   * restarts (after a crash or a limit) starts without it: whatever killed its predecessor may come again.
   */
  warm(): Promise<void> {
    return this.running(true);
  }

  /** The running child's readiness, starting one when there is none. */
  private running(warmUp = false): Promise<void> {
    if (!this.child || !this.ready) this.ready = this.start(warmUp);
    return this.ready;
  }

  /** Extracts one document in the child (starting one when there is none). */
  async extract(path: string, kind: FileKind, request: ExtractRequest): Promise<Extracted> {
    await this.running();
    const child = this.child!;
    const id = this.nextId++;
    return new Promise<Extracted>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        // Gone from now on, not only once its exit is reported: the next document starts a new child.
        this.forget(child);
        stopGroup(child);
        reject(new ExtractionError('FILE_PARSE_LIMIT', `no result within ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      this.pending.set(id, { child, resolve, reject, timer, onProgress: request.onProgress });
      child.send({ id, path, kind, ocr: request.ocr });
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = null;
    this.ready = null;
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      stopGroup(child);
      await exited;
    }
  }
}

/** Stops a parser process and the OCR programs it started (its process group), whichever are still running. */
function stopGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
