import type { ChatStreamEvent } from '@werkwissen/shared';
import type { FastifyReply } from 'fastify';

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
      'cache-control': 'no-cache, no-transform',
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

  end(): void {
    if (!this.#reply.raw.writableEnded) this.#reply.raw.end();
  }
}
