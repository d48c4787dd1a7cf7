import type { ChatCompletionBody, Language } from '@werkwissen/shared';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { SseStream } from '../chat/sse.ts';
import { answerCompletion } from './openai-api.service.ts';
import {
  type CompletionIdentity,
  chunkOf,
  closingChunks,
  identityOf,
  isErrorCode,
  openAiErrorOf,
} from './openai-format.ts';

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
  const open: { sse: SseStream; identity: CompletionIdentity }[] = [];
  let failed = false;
  try {
    const answered = await answerCompletion(ctx, actor, body, language, {
      signal: left.signal,
      emit: (event) => {
        if (event.event === 'start') {
          const sse = new SseStream(reply);
          sse.onClientClose(() => left.abort());
          const identity = identityOf(event.data.messageId, body.model);
          open.push({ sse, identity });
          sse.sendData(
            chunkOf(identity, { role: 'assistant', content: '', refusal: null }, null, includeUsage),
          );
          return;
        }
        const stream = open[0];
        if (!stream) return;
        if (event.event === 'token') {
          stream.sse.sendData(chunkOf(stream.identity, { content: event.data.text }, null, includeUsage));
        } else if (event.event === 'error') {
          failed = true;
          const code = isErrorCode(event.data.code) ? event.data.code : 'INTERNAL';
          stream.sse.sendData(openAiErrorOf({ code, message: event.data.message }).body);
        }
      },
    });
    const stream = open[0];
    if (stream && !failed) {
      for (const chunk of closingChunks(stream.identity, answered, includeUsage)) stream.sse.sendData(chunk);
      stream.sse.sendData('[DONE]');
    }
  } finally {
    open[0]?.sse.end();
  }
}
