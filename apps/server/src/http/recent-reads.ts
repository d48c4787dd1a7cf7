/** How long a second logged read of the same address by the same session is not logged again. */
export const READ_REPEAT_MINUTES = 10;
/** Remembered addresses per process; past this, those older than the window are forgotten. */
const REMEMBERED = 10_000;

/**
 * The logged reads (a mail's text; what an operator opens while viewing as someone), remembered per session and
 * address for READ_REPEAT_MINUTES: what someone opens is logged, not every repetition (a list the page reloads, a
 * status it polls). Per process: several API processes may each log a read once.
 */
export class RecentReads {
  readonly #seen = new Map<string, number>();

  /** Whether this read is the first of its address in the view within the window (and remembers it if so). */
  firstOf(sessionId: string, path: string, now = Date.now()): boolean {
    const key = `${sessionId} ${path}`;
    const last = this.#seen.get(key);
    if (last !== undefined && now - last < READ_REPEAT_MINUTES * 60_000) return false;
    this.#seen.delete(key);
    this.#seen.set(key, now);
    if (this.#seen.size > REMEMBERED) {
      for (const [k, at] of this.#seen) {
        if (now - at < READ_REPEAT_MINUTES * 60_000) break;
        this.#seen.delete(k);
      }
    }
    return true;
  }
}
