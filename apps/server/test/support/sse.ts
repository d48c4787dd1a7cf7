import type { ApiClient } from './api-client.ts';

export interface SseEvent {
  event: string;
  data: any;
}

export interface StreamResult {
  status: number;
  headers: Headers;
  contentType: string | null;
  /** The events, in order (empty when the answer was a JSON error). */
  events: SseEvent[];
  /** The JSON body of an error answer. */
  body: any;
  text(): string;
  done(): any;
}

/**
 * Sends a request whose answer is a server-sent-event stream, with the client's cookies and CSRF token, and reads
 * the events. `stopAfter` aborts the request (like the browser's Stop button) once that many tokens arrived.
 */
export async function stream(
  client: ApiClient,
  path: string,
  body?: unknown,
  options: { stopAfter?: number } = {},
): Promise<StreamResult> {
  const headers: Record<string, string> = { ...client.headers, accept: 'text/event-stream' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (client.cookies.size > 0) headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const csrf = client.cookies.get('ww_csrf');
  if (csrf) headers['x-csrf-token'] = csrf;
  if (client.language) headers['accept-language'] = client.language;
  const abort = new AbortController();
  const res = await fetch(`${client.baseUrl}/api/v1${path}`, {
    method: 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: abort.signal,
  });
  const contentType = res.headers.get('content-type');
  const events: SseEvent[] = [];
  let errorBody: any = null;
  if (!contentType?.startsWith('text/event-stream')) {
    errorBody = await res.json();
  } else {
    const decoder = new TextDecoder();
    let buffer = '';
    let tokens = 0;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          events.push({ event, data: data ? JSON.parse(data) : null });
          if (event === 'token') tokens++;
          end = buffer.indexOf('\n\n');
        }
        if (options.stopAfter !== undefined && tokens >= options.stopAfter) {
          abort.abort();
          break;
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    }
  }
  return {
    status: res.status,
    headers: res.headers,
    contentType,
    events,
    body: errorBody,
    text: () =>
      events
        .filter((e) => e.event === 'token')
        .map((e) => e.data.text)
        .join(''),
    done: () => events.find((e) => e.event === 'done')?.data,
  };
}
