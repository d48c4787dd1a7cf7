import type { Chat, ChatMessage, ChatOptions, Citation, Feedback, RouteContract } from '@werkwissen/shared';
import { apiError, type Call, fakeApi, routeOf } from '../../test/fake-api.ts';
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

/** The server's answer for what is not there (a revoked link, a widget switched off). */
export const notFound: Handler = () =>
  Response.json({ error: { code: 'NOT_FOUND', message: 'Not found.' } }, { status: 404 });

/**
 * The chat screens' server: `METHOD path` keys (path without the query) answered by handlers that write the
 * response (a JSON body, or a stream of server-sent events). It runs on the typed fake API: each key must be a
 * contract's route, each request must pass the contract's schemas and each JSON answer its response schema, and a
 * request no key answers fails the test. Returns the calls made to a key.
 */
export function stubFetch(routes: Record<string, Handler>) {
  const api = fakeApi();
  const byContract = new Map<RouteContract, Map<string, Handler>>();
  const contracts = new Map<string, RouteContract>();
  for (const [key, handler] of Object.entries(routes)) {
    const [method, path] = key.split(' ') as [string, string];
    const route = routeOf(method, path);
    if (!route) throw new Error(`No contract has the route ${key}`);
    contracts.set(key, route.contract);
    byContract.set(route.contract, (byContract.get(route.contract) ?? new Map()).set(path, handler));
  }
  for (const [contract, handlers] of byContract)
    api.on(contract, (call) => {
      const handler = handlers.get(call.url.pathname);
      if (!handler) return apiError(404, 'NOT_FOUND', 'Not found.');
      return handler(initOf(contract.method, call), `${call.url.pathname}${call.url.search}`);
    });
  return {
    calls: (key: string) => {
      const path = key.slice(key.indexOf(' ') + 1);
      const contract = contracts.get(key) ?? routeOf(key.slice(0, key.indexOf(' ')), path)?.contract;
      return (contract ? api.calls(contract) : [])
        .filter((call) => call.url.pathname === path)
        .map((call) => ({
          url: `${call.url.pathname}${call.url.search}`,
          init: initOf(contract!.method, call),
        }));
    },
  };
}

/** The request as a handler reads it: its method, its JSON body as sent, its abort signal. */
function initOf(method: string, call: Call<RouteContract>): RequestInit {
  return {
    method,
    headers: call.headers,
    ...(call.credentials ? { credentials: call.credentials } : {}),
    ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    ...(call.form ? { body: call.form } : {}),
    ...(call.signal ? { signal: call.signal } : {}),
  };
}
