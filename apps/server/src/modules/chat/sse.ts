import type { ChatStreamEvent } from '@werkwissen/shared';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { type AskRequest, answerQuestion } from './answer-stream.ts';

/**
 * A server-sent-events response (design/api.md): typed `event:` lines with JSON data. It takes the response over
 * from Fastify, keeps the headers other hooks set (security headers, request id), and tells when the client left.
 */
export class SseStream {
  readonly #reply: FastifyReply;
  #closedByClient = false;

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

  send(event: ChatStreamEvent): void {
    if (this.#closedByClient) return;
    this.#reply.raw.write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
  }

  /** A data-only event (`data: <JSON or text>`), as OpenAI's streams send them. */
  sendData(data: unknown): void {
    if (this.#closedByClient) return;
    this.#reply.raw.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (!this.#reply.raw.writableEnded) this.#reply.raw.end();
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
  try {
    await answerQuestion(ctx, req, {
      signal: left.signal,
      emit: (event) => {
        if (!sse) {
          sse = new SseStream(reply);
          sse.onClientClose(() => left.abort());
        }
        sse.send(event);
      },
    });
  } finally {
    (sse as SseStream | null)?.end();
  }
}
