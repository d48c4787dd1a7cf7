import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './http.ts';
import { createSseParser, postEventStream, type SseEvent } from './sse.ts';

afterEach(() => vi.unstubAllGlobals());

const STREAM =
  '\uFEFF: keep-alive\r\nevent: start\r\ndata: {"a":1}\r\n\r\nevent: token\ndata: line one\ndata: line two\n\n' +
  'data:no space\rid: 7\rretry: 100\r\revent: done\ndata: {}\n\nevent: cut\ndata: never finished\n';

function parseInChunks(text: string, size: number): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((e) => events.push(e));
  for (let i = 0; i < text.length; i += size) parser.feed(text.slice(i, i + size));
  parser.end();
  return events;
}

describe('the server-sent events parser', () => {
  const expected = [
    { event: 'start', data: '{"a":1}' },
    { event: 'token', data: 'line one\nline two' },
    { event: 'message', data: 'no space' },
    { event: 'done', data: '{}' },
  ];

  it('reads typed events, joins data lines, skips comments and drops an unfinished last event', () => {
    expect(parseInChunks(STREAM, STREAM.length)).toEqual(expected);
  });

  it('gives the same events whatever the chunk boundaries, even inside a CRLF', () => {
    for (const size of [1, 2, 3, 5, 7, 16])
      expect(parseInChunks(STREAM, size), `size ${size}`).toEqual(expected);
  });

  it('finishes an event whose blank line ends in a lone CR at the end of the stream', () => {
    expect(parseInChunks('data: x\r\r', 1)).toEqual([{ event: 'message', data: 'x' }]);
  });
});

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('posting to an event stream', () => {
  it('sends JSON with the CSRF header and delivers the events, split across chunks', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the CSRF cookie the request must send back as a header
    document.cookie = 'ww_csrf=token-1';
    const fetch = vi.fn(
      async () =>
        new Response(
          streamOf(['event: token\ndata: {"te', 'xt":"Hal"}\n\nevent: token\ndata: {"text":"lo"}\n\n']),
          {
            headers: { 'content-type': 'text/event-stream' },
          },
        ),
    );
    vi.stubGlobal('fetch', fetch);
    const events: SseEvent[] = [];
    await postEventStream('/api/v1/x', { body: { content: 'Hi' } }, (e) => events.push(e));
    expect(events.map((e) => JSON.parse(e.data).text)).toEqual(['Hal', 'lo']);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/x');
    expect(init.body).toBe('{"content":"Hi"}');
    expect((init.headers as Record<string, string>)['x-csrf-token']).toBe('token-1');
  });

  it('leaves the CSRF header out for a public visitor', async () => {
    const fetch = vi.fn(async () => new Response(streamOf([])));
    vi.stubGlobal('fetch', fetch);
    await postEventStream('/api/v1/public', { session: false }, () => {});
    const init = (fetch.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.headers).not.toHaveProperty('x-csrf-token');
    expect(init.credentials).toBe('same-origin');
  });

  it('renews an expired session once and sends again', async () => {
    const fetch = vi.fn(async (url: string) => {
      if (url === '/api/v1/auth/refresh') return new Response(null, { status: 204 });
      if (fetch.mock.calls.filter(([u]) => u === '/api/v1/x').length === 1)
        return Response.json({ error: { code: 'SESSION_EXPIRED', message: '' } }, { status: 401 });
      return new Response(streamOf(['data: ok\n\n']));
    });
    vi.stubGlobal('fetch', fetch);
    const events: SseEvent[] = [];
    await postEventStream('/api/v1/x', {}, (e) => events.push(e));
    expect(events).toEqual([{ event: 'message', data: 'ok' }]);
    expect(fetch.mock.calls.map(([u]) => u)).toEqual(['/api/v1/x', '/api/v1/auth/refresh', '/api/v1/x']);
  });

  it("rejects with the server's error, taking the wait of a 429 from Retry-After", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json(
          { error: { code: 'RATE_LIMITED', message: 'Too many.' } },
          { status: 429, headers: { 'retry-after': '30' } },
        ),
      ),
    );
    const error = (await postEventStream('/api/v1/x', {}, () => {}).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code, error.message, error.details?.seconds]).toEqual([
      429,
      'RATE_LIMITED',
      'Too many.',
      30,
    ]);
  });

  it('rejects with NETWORK when the request fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(postEventStream('/api/v1/x', {}, () => {})).rejects.toMatchObject({ code: 'NETWORK' });
  });
});
