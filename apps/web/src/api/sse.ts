import type { ErrorBody } from '@werkwissen/shared';
import { ApiError, readCookie, sendRenewing } from './http.ts';

/** One server-sent event: its type (`message` when the stream names none) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * A parser of the `text/event-stream` format (WHATWG HTML, "server-sent events"): feed it the decoded text in chunks
 * of any size; it calls `onEvent` for every complete event. Comments, `id` and `retry` are ignored.
 */
export function createSseParser(onEvent: (event: SseEvent) => void) {
  let buffer = '';
  let type = '';
  let data: string[] = [];
  let first = true;

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onEvent({ event: type || 'message', data: data.join('\n') });
      type = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
  };

  return {
    feed(chunk: string) {
      buffer += chunk;
      if (first && buffer.length > 0) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
        first = false;
      }
      // A trailing CR may be the first half of a CRLF: keep it until the next chunk says.
      const pattern = /\r\n|\r(?!$)|\n/g;
      let start = 0;
      for (let match = pattern.exec(buffer); match; match = pattern.exec(buffer)) {
        line(buffer.slice(start, match.index));
        start = match.index + match[0].length;
      }
      buffer = buffer.slice(start);
    },
    /** The stream ended: an event without its closing blank line is dropped, as the format says. */
    end() {
      if (buffer.endsWith('\r')) line(buffer.slice(0, -1));
      buffer = '';
      type = '';
      data = [];
    },
  };
}

export interface EventStreamOptions {
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Signed-in requests (the default) carry the CSRF header and renew an expired session once; a public chat's
   * visitor has neither.
   */
  session?: boolean;
  /** Further request headers (a website widget's visitor token). */
  headers?: Record<string, string>;
}

async function errorFrom(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => null)) as ErrorBody | null;
  const error = body?.error;
  const details = { ...error?.details };
  const retryAfter = Number(res.headers.get('retry-after'));
  if (res.status === 429 && details.seconds === undefined && Number.isFinite(retryAfter) && retryAfter > 0)
    details.seconds = retryAfter;
  return new ApiError(res.status, error?.code ?? 'INTERNAL', error?.message ?? '', details);
}

/**
 * POSTs to an endpoint that answers with server-sent events and calls `onEvent` for each event as it arrives.
 * Resolves when the stream ends. A refusal before the stream (non-2xx, JSON error body) rejects with an ApiError,
 * a broken connection with an ApiError `NETWORK`, an abort through `signal` with the AbortError.
 */
export async function postEventStream(
  url: string,
  options: EventStreamOptions,
  onEvent: (event: SseEvent) => void,
): Promise<void> {
  const session = options.session ?? true;
  const send = () => {
    const headers: Record<string, string> = { ...options.headers, accept: 'text/event-stream' };
    if (session) headers['x-csrf-token'] = readCookie('ww_csrf') ?? '';
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(url, {
      method: 'POST',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  };
  const rethrow = (error: unknown): never => {
    if ((error as Error).name === 'AbortError' || error instanceof ApiError) throw error;
    throw new ApiError(0, 'NETWORK', '');
  };

  const res = await sendRenewing(send, session);
  if (!res.ok) throw await errorFrom(res);
  if (!res.body) return;

  const parser = createSseParser(onEvent);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    parser.feed(decoder.decode());
    parser.end();
  } catch (error) {
    return rethrow(error);
  } finally {
    reader.releaseLock();
  }
}
