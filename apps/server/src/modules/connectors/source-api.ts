import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import type * as client from 'openid-client';
import type { AppContext } from '../../app-context.ts';
import { connectors } from '../../db/schema/index.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { refreshAccess } from './connector-oauth.ts';
import { SourceError, sourceFailure } from './source-client.ts';

/** Throttled answers waited out per request before the sync gives up and is retried later. */
const MAX_WAITS = 5;
/** The longest Retry-After honoured; a longer one ends the attempt (the job retries with its own backoff). */
const MAX_WAIT_SECONDS = 120;

/** An answer of the source's API that was not a success, with its status (`sourceFailure` maps it to the reason). */
export class SourceHttpError extends Error {
  readonly status: number;
  readonly location: string | null;
  constructor(status: number, message: string, location: string | null = null) {
    super(message);
    this.status = status;
    this.location = location;
    this.name = 'SourceHttpError';
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

/** Google's way of throttling besides 429: 403 with `rateLimitExceeded` or `userRateLimitExceeded` as the reason. */
const RATE_LIMIT_REASON = /"reason"\s*:\s*"(rateLimitExceeded|userRateLimitExceeded)"/;

/** Who the API is (for messages and logs) and the scope a refresh asks for again (Microsoft wants it). */
export interface SourceApiOptions {
  service: string;
  scope?: string;
  signal?: AbortSignal;
}

/**
 * Requests to a source's API (Microsoft Graph, Google Drive) on behalf of one connector, through the outbound policy.
 * The access token lives in memory only: the first request, and any answered 401 (an expired token), redeems the
 * refresh token for a new one; a rotated refresh token (Microsoft rotates them) is handed to `keepRefreshToken` to be
 * stored sealed. Throttling (429, 503, Google's 403 rate limits) is waited out as Retry-After says (else with a
 * growing backoff), a bounded number of times.
 */
export class SourceApi {
  readonly #ctx: AppContext;
  readonly #oauth: client.Configuration;
  readonly #keepRefreshToken: (token: string) => Promise<void>;
  readonly #options: SourceApiOptions;
  #refreshToken: string;
  #accessToken: string | null = null;

  constructor(
    ctx: AppContext,
    oauth: client.Configuration,
    tokens: { refreshToken: string; accessToken?: string | null },
    keepRefreshToken: (token: string) => Promise<void>,
    options: SourceApiOptions,
  ) {
    this.#ctx = ctx;
    this.#oauth = oauth;
    this.#refreshToken = tokens.refreshToken;
    this.#accessToken = tokens.accessToken ?? null;
    this.#keepRefreshToken = keepRefreshToken;
    this.#options = options;
  }

  /** The refresh token in force (rotated ones included). */
  get refreshToken(): string {
    return this.#refreshToken;
  }

  async #refresh(): Promise<string> {
    const tokens = await refreshAccess(this.#oauth, this.#refreshToken, this.#options.scope);
    this.#accessToken = tokens.accessToken;
    if (tokens.refreshToken !== this.#refreshToken) {
      this.#refreshToken = tokens.refreshToken;
      await this.#keepRefreshToken(tokens.refreshToken);
    }
    return tokens.accessToken;
  }

  /** Whether an answer that was not a success asks to wait (its body is read only for a 403). */
  async #throttled(res: Response): Promise<boolean> {
    if (res.status === 429 || res.status === 503) return true;
    return res.status === 403 && RATE_LIMIT_REASON.test(await res.text().catch(() => ''));
  }

  /** A successful answer to GET `url` (a 3xx to a download address is followed by fetch). */
  async get(url: string): Promise<Response> {
    const { service, signal } = this.#options;
    let refreshed = false;
    let waits = 0;
    for (;;) {
      const token = this.#accessToken ?? (await this.#refresh());
      const res = await this.#ctx.outbound.fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (res.ok) return res;
      if (res.status === 401 && !refreshed) {
        await res.body?.cancel();
        refreshed = true;
        this.#accessToken = null;
        continue;
      }
      if (await this.#throttled(res)) {
        await res.body?.cancel().catch(() => {});
        const seconds = retryAfter(res, waits);
        if (++waits > MAX_WAITS || seconds > MAX_WAIT_SECONDS)
          throw new SourceError('unreachable', `${service} throttled the sync (${res.status})`);
        this.#ctx.log.info({ status: res.status, seconds }, `${service} asked to wait`);
        await sleep(seconds * 1000, undefined, { signal });
        continue;
      }
      await res.body?.cancel().catch(() => {});
      throw new SourceHttpError(res.status, `${service} answered ${res.status}`, res.headers.get('location'));
    }
  }

  async json<T>(url: string): Promise<T> {
    const res = await this.get(url);
    try {
      return (await res.json()) as T;
    } catch {
      throw new SourceError('protocol', `${this.#options.service} answered something else than JSON`);
    }
  }

  /** A file's content at `url`, as a stream (a failure as the connector's reason). */
  async download(url: string): Promise<Readable> {
    try {
      const res = await this.get(url);
      if (!res.body) throw new SourceError('protocol', 'an empty download');
      return Readable.fromWeb(res.body as WebReadableStream);
    } catch (error) {
      throw sourceFailure(error);
    }
  }
}

/** The API of a stored connector: its refresh token opened, each rotated one sealed back into its row. */
export function connectorApi(
  ctx: AppContext,
  oauth: client.Configuration,
  connector: { id: string; secretSealed: string },
  options: SourceApiOptions,
): SourceApi {
  const box = new SecretBox(ctx.config.secrets.encryptionKey);
  const keep = async (token: string) => {
    await ctx.db
      .update(connectors)
      .set({ secretSealed: box.seal(token) })
      .where(eq(connectors.id, connector.id));
  };
  return new SourceApi(ctx, oauth, { refreshToken: box.open(connector.secretSealed) }, keep, options);
}
