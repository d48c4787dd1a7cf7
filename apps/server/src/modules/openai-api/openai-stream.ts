import type { ChatCompletionBody, Language } from '@werkwissen/shared';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { SseStream } from '../chat/sse.ts';
import { type Answered, answerCompletion } from './openai-api.service.ts';
import {
  type CompletionIdentity,
  chunkOf,
  closingChunks,
  identityOf,
  isErrorCode,
  openAiErrorOf,
} from './openai-format.ts';

/** One completion's stream, opened with the answer's first event: its chunks, in OpenAI's order. */
class CompletionStream {
  readonly #sse: SseStream;
  readonly #identity: CompletionIdentity;
  readonly #includeUsage: boolean;
  #answering = false;
  /** The answer failed after it started: the in-stream error was its last word. */
  failed = false;

  constructor(
    reply: FastifyReply,
    identity: CompletionIdentity,
    includeUsage: boolean,
    left: AbortController,
  ) {
    this.#sse = new SseStream(reply);
    this.#sse.onClientClose(() => left.abort());
    this.#identity = identity;
    this.#includeUsage = includeUsage;
    this.#sse.sendData(
      chunkOf(identity, { role: 'assistant', content: '', refusal: null }, null, includeUsage),
    );
  }

  text(text: string): void {
    // The answer's first words are not held back for the chunks after them.
    this.#sse.sendData(chunkOf(this.#identity, { content: text }, null, this.#includeUsage), {
      now: !this.#answering,
    });
    this.#answering = true;
  }

  error(code: string, message: string): void {
    this.failed = true;
    const known = isErrorCode(code) ? code : 'INTERNAL';
    this.#sse.sendData(openAiErrorOf({ code: known, message }).body);
  }

  close(answered: Answered): void {
    for (const chunk of closingChunks(this.#identity, answered, this.#includeUsage))
      this.#sse.sendData(chunk);
    this.#sse.sendData('[DONE]');
  }

  end(): void {
    this.#sse.end();
  }
}

/**
 * A streamed chat completion as OpenAI sends one: `data: {chat.completion.chunk}` lines (the role first, then the
 * text as it is written, then the finish reason with the citations, and the usage when asked for), then
 * `data: [DONE]`. The stream opens with the answer, so that a request refused before it (an unknown model, the plan's
 * limit) is an ordinary OpenAI error body; a provider that fails mid-answer ends the stream with OpenAI's in-stream
 * error (`data: {"error": …}`); a client that leaves stops the answer, which is kept as stopped.
 */
export async function streamCompletion(
  ctx: AppContext,
  reply: FastifyReply,
  actor: Actor,
  body: ChatCompletionBody,
  language: Language,
): Promise<void> {
  const includeUsage = body.stream_options?.include_usage === true;
  const left = new AbortController();
  let stream: CompletionStream | null = null;
  const opened = () => stream as CompletionStream | null;
  try {
    const answered = await answerCompletion(ctx, actor, body, language, {
      signal: left.signal,
      emit: (event) => {
        if (event.event === 'start') {
          stream = new CompletionStream(
            reply,
            identityOf(event.data.messageId, body.model),
            includeUsage,
            left,
          );
        } else if (event.event === 'token') {
          opened()?.text(event.data.text);
        } else if (event.event === 'error') {
          opened()?.error(event.data.code, event.data.message);
        }
      },
    });
    const open = opened();
    if (open && !open.failed) open.close(answered);
  } finally {
    opened()?.end();
  }
}
