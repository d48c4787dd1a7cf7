import { setTimeout as sleep } from 'node:timers/promises';
import type * as client from 'openid-client';
import type { AppContext } from '../../app-context.ts';
import { refreshAccess } from './microsoft-oauth.ts';
import { SourceError } from './source-client.ts';

/** Throttled answers (429, 503) waited out per request before the sync gives up and is retried later. */
const MAX_WAITS = 5;
/** The longest Retry-After honoured; a longer one ends the attempt (the job retries with its own backoff). */
const MAX_WAIT_SECONDS = 120;

/** A Graph answer that was not a success, with its status (`sourceFailure` maps it to the connector's reason). */
export class GraphError extends Error {
  readonly status: number;
  readonly location: string | null;
  constructor(status: number, message: string, location: string | null = null) {
    super(message);
    this.status = status;
    this.location = location;
    this.name = 'GraphError';
  }
}

/** Seconds a throttled answer asks to wait: Retry-After (seconds or an HTTP date), else a growing default. */
function retryAfter(res: Response, attempt: number): number {
  const header = res.headers.get('retry-after');
  const seconds =
    header && /^\d+$/.test(header.trim())
      ? Number(header)
      : header
        ? (Date.parse(header) - Date.now()) / 1000
        : NaN;
  return Number.isFinite(seconds) ? Math.max(0, seconds) : 2 ** attempt;
}

/**
 * Requests to Microsoft Graph on behalf of one connector, through the outbound policy. The access token lives in
 * memory only: the first request, and any answered 401 (an expired token), redeems the refresh token for a new one;
 * Microsoft rotates refresh tokens, and each new one is handed to `keepRefreshToken` to be stored sealed. Throttling
 * (429, 503) is waited out as Retry-After says, a bounded number of times.
 */
export class GraphApi {
  readonly #ctx: AppContext;
  readonly #oauth: client.Configuration;
  readonly #keepRefreshToken: (token: string) => Promise<void>;
  #refreshToken: string;
  #accessToken: string | null = null;
  /** The job's: a worker stopping ends a wait for Retry-After at once. */
  readonly #signal: AbortSignal | undefined;

  constructor(
    ctx: AppContext,
    oauth: client.Configuration,
    refreshToken: string,
    keepRefreshToken: (token: string) => Promise<void>,
    accessToken: string | null = null,
    signal?: AbortSignal,
  ) {
    this.#ctx = ctx;
    this.#oauth = oauth;
    this.#refreshToken = refreshToken;
    this.#keepRefreshToken = keepRefreshToken;
    this.#accessToken = accessToken;
    this.#signal = signal;
  }

  /** The refresh token in force (rotated ones included). */
  get refreshToken(): string {
    return this.#refreshToken;
  }

  async #refresh(): Promise<string> {
    const tokens = await refreshAccess(this.#oauth, this.#refreshToken);
    this.#accessToken = tokens.accessToken;
    if (tokens.refreshToken !== this.#refreshToken) {
      this.#refreshToken = tokens.refreshToken;
      await this.#keepRefreshToken(tokens.refreshToken);
    }
    return tokens.accessToken;
  }

  /** A successful answer to GET `url` (a 3xx to a download address is followed by fetch). */
  async get(url: string): Promise<Response> {
    let refreshed = false;
    let waits = 0;
    for (;;) {
      const token = this.#accessToken ?? (await this.#refresh());
      const res = await this.#ctx.outbound.fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (res.ok) return res;
      await res.body?.cancel();
      if (res.status === 401 && !refreshed) {
        refreshed = true;
        this.#accessToken = null;
        continue;
      }
      if (res.status === 429 || res.status === 503) {
        const seconds = retryAfter(res, waits);
        if (++waits > MAX_WAITS || seconds > MAX_WAIT_SECONDS)
          throw new SourceError('unreachable', `Microsoft Graph throttled the sync (${res.status})`);
        this.#ctx.log.info({ status: res.status, seconds }, 'Microsoft Graph asked to wait');
        await sleep(seconds * 1000, undefined, { signal: this.#signal });
        continue;
      }
      throw new GraphError(res.status, `Microsoft Graph answered ${res.status}`, res.headers.get('location'));
    }
  }

  async json<T>(url: string): Promise<T> {
    const res = await this.get(url);
    try {
      return (await res.json()) as T;
    } catch {
      throw new SourceError('protocol', 'Microsoft Graph answered something else than JSON');
    }
  }
}
