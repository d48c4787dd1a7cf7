/** The abort reason that ends a stream because the server is stopping. */
export const SERVER_STOPPING = 'server stopping';

/**
 * The answer streams this process has open. A stopping server ends them (their answers are stored as interrupted
 * and the client gets an `error` event), instead of waiting for a language model that may talk for minutes or
 * cutting the connection without a word.
 */
export class OpenStreams {
  readonly #open = new Map<AbortController, Promise<void>>();
  #stopping = false;

  /**
   * Registers a stream by its abort controller (aborted at once when the server is already stopping); call the
   * returned function when the stream has stored its answer and ended.
   */
  open(abort: AbortController): () => void {
    let ended = () => {};
    this.#open.set(abort, new Promise<void>((resolve) => (ended = resolve)));
    if (this.#stopping) abort.abort(SERVER_STOPPING);
    return () => {
      this.#open.delete(abort);
      ended();
    };
  }

  /** Ends every open stream and waits until each has stored its answer, for at most `timeoutMs`. */
  async endAll(timeoutMs: number): Promise<void> {
    this.#stopping = true;
    for (const abort of this.#open.keys()) abort.abort(SERVER_STOPPING);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.#open.values()),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
