import type { ChatStreamEvent } from '@werkwissen/shared';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { type AskRequest, answerQuestion } from './answer-stream.ts';

/**
 * Events that follow another within this many milliseconds go out together: one socket write per interval, not one
 * per token (each write is a system call and a chunk of the response, on the server and on the client).
 */
export const SSE_FLUSH_MS = 25;

/**
 * A server-sent-events response (design/api.md): typed `event:` lines with JSON data. It takes the response over
 * from Fastify, keeps the headers other hooks set (security headers, request id), and tells when the client left.
 * An event goes out at once after a quiet interval, and the events of a burst (an answer's tokens) together at most
 * every SSE_FLUSH_MS; an event sent `now` (the answer's first words) goes out at once with those before it.
 */
export class SseStream {
  readonly #reply: FastifyReply;
  #closedByClient = false;
  #pending = '';
  #timer: NodeJS.Timeout | null = null;

  constructor(reply: FastifyReply) {
    this.#reply = reply;
    reply.hijack();
    const raw = reply.raw;
    raw.on('close', () => {
      if (!raw.writableFinished) this.#closedByClient = true;
    });
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    raw.flushHeaders();
  }

  /** The client went away before the stream ended. */
  get closedByClient(): boolean {
    return this.#closedByClient;
  }

  onClientClose(listener: () => void): void {
    this.#reply.raw.on('close', () => {
      if (this.#closedByClient) listener();
    });
  }

  send(event: ChatStreamEvent, options: { now?: boolean } = {}): void {
    this.#write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`, options.now);
  }

  /** A data-only event (`data: <JSON or text>`), as OpenAI's streams send them. */
  sendData(data: unknown, options: { now?: boolean } = {}): void {
    this.#write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`, options.now);
  }

  end(): void {
    this.#stopTimer();
    if (this.#reply.raw.writableEnded) return;
    if (this.#pending && !this.#closedByClient) this.#reply.raw.write(this.#pending);
    this.#pending = '';
    this.#reply.raw.end();
  }

  #write(text: string, now = false): void {
    if (this.#closedByClient || this.#reply.raw.writableEnded) return;
    if (this.#timer && !now) {
      this.#pending += text;
      return;
    }
    this.#reply.raw.write(this.#pending + text);
    this.#pending = '';
    this.#stopTimer();
    this.#timer = setTimeout(() => this.#flush(), SSE_FLUSH_MS);
  }

  #flush(): void {
    this.#timer = null;
    if (!this.#pending) return;
    const pending = this.#pending;
    this.#pending = '';
    this.#write(pending);
  }

  #stopTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}

/**
 * The chat's way of answering: `answerQuestion` with its events as server-sent events. The stream opens with the
 * first event, so that a question refused before the answer starts is an ordinary JSON error; a client that leaves
 * stops the answer, which is then kept as stopped.
 */
export async function streamAnswer(ctx: AppContext, reply: FastifyReply, req: AskRequest): Promise<void> {
  const left = new AbortController();
  let sse: SseStream | null = null;
  let answering = false;
  try {
    await answerQuestion(ctx, req, {
      signal: left.signal,
      emit: (event) => {
        if (!sse) {
          sse = new SseStream(reply);
          sse.onClientClose(() => left.abort());
        }
        // The answer's first words are not held back for the events after them.
        const first = event.event === 'token' && !answering;
        if (first) answering = true;
        sse.send(event, { now: first });
      },
    });
  } finally {
    (sse as SseStream | null)?.end();
  }
}
