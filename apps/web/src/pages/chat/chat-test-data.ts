import type { Chat, ChatMessage, ChatOptions, Citation, Feedback } from '@werkwissen/shared';
import { vi } from 'vitest';
import { DIVISION_ID } from '../../test/fixtures.ts';

/** Test data and a fake server for the chat screens' tests. */

export const CHAT_ID = '1c0a7e52-3b8e-4a53-9d2e-1f0c6a1b2c01';
export const FILE_ID = 'f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9';
export const QUESTION_ID = '2d1b8f63-4c9f-4b64-8e3f-2a1d7b2c3d02';
export const ANSWER_ID = '3e2c9a74-5d0a-4c75-9f4a-3b2e8c3d4e03';

export function chat(overrides: Partial<Chat> = {}): Chat {
  return {
    id: CHAT_ID,
    name: 'Heizungsfragen',
    visibility: 'private',
    provider: 'builtin',
    source: 'web',
    divisions: [{ id: DIVISION_ID, name: 'Heizung' }],
    isOwner: true,
    canManage: true,
    ownerName: 'Dana Datenverwalterin',
    shareToken: null,
    canAsk: true,
    messageCount: 2,
    lastMessageAt: '2025-03-02T10:00:00.000Z',
    createdAt: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export function citation(overrides: Partial<Citation> = {}): Citation {
  return {
    n: 1,
    passageId: '4f3d0b85-6e1b-4d86-8a5b-4c3f9d4e5f04',
    fileId: FILE_ID,
    fileName: 'Wartungshandbuch.pdf',
    divisionId: DIVISION_ID,
    page: 3,
    headingPath: ['Wartung'],
    text: 'Der Brenner wird jährlich gewartet.',
    ...overrides,
  };
}

export function message(overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: ANSWER_ID,
    role: 'assistant',
    content: '',
    status: 'complete',
    errorCode: null,
    errorMessage: null,
    noAnswer: false,
    citations: [],
    provider: 'builtin',
    model: null,
    feedback: null,
    createdAt: '2025-03-02T10:00:00.000Z',
    ...overrides,
  };
}

export const chatOptions = (speech: Partial<ChatOptions['speech']> = {}): ChatOptions => ({
  providers: [{ provider: 'builtin', model: null }],
  defaultProvider: 'builtin',
  speech: { available: true, provider: 'openai', reason: null, ...speech },
});

/** An SSE body the test writes to event by event, which errors like fetch does when its request is aborted. */
export function eventStream(signal?: AbortSignal | null) {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  signal?.addEventListener('abort', () => controller.error(new DOMException('Aborted', 'AbortError')));
  return {
    response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    send(event: string, data: unknown) {
      controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    },
    close() {
      controller.close();
    },
  };
}

type Handler = (init: RequestInit, url: string) => Response | Promise<Response>;

/** A fetch stub answering `METHOD path` keys (path without the query) and 404 otherwise; returns the calls made. */
/** A stub of `PUT /messages/:id/feedback` that saves what was sent over `saved` and answers the whole feedback. */
export function feedbackEcho(saved: Partial<Feedback> = {}): Handler {
  return (init) =>
    Response.json({
      id: '8d7b4fc9-0c5f-4bca-9e9f-8a7d3b8c9d08',
      messageId: ANSWER_ID,
      liked: null,
      mood: null,
      rating: null,
      comment: null,
      tagId: null,
      tagName: null,
      updatedAt: '2025-03-02T10:01:00.000Z',
      ...saved,
      ...JSON.parse(init.body as string),
    });
}

export function stubFetch(routes: Record<string, Handler>) {
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const handler = routes[`${method} ${url.split('?')[0]}`];
    if (handler) return handler(init, url);
    return Response.json({ error: { code: 'NOT_FOUND', message: 'Not found.' } }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetch);
  return {
    calls: (key: string) =>
      fetch.mock.calls
        .filter(([url, init]) => `${init?.method ?? 'GET'} ${url.split('?')[0]}` === key)
        .map(([url, init]) => ({ url, init: init ?? {} })),
  };
}
