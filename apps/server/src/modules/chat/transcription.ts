import { experimental_transcribe as transcribe } from 'ai';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../http/app-error.ts';
import { speechConnection } from '../ai-providers/ai-providers.service.ts';
import { providerErrorCode, transcriptionModelOf } from '../ai-providers/model-client.ts';

/** OpenAI's transcription endpoint takes files up to 25 MB. */
const AUDIO_MAX_BYTES = 25 * 1024 * 1024;

/**
 * Transcribes a recorded voice message (multipart field `audio`) through the company's provider that has a
 * transcription model; the text goes back for editing, never straight into the chat.
 */
export async function transcribeVoice(
  ctx: AppContext,
  companyId: string,
  request: FastifyRequest,
): Promise<string> {
  const connection = await speechConnection(ctx, companyId);
  const model = connection ? transcriptionModelOf(connection, ctx.outbound.fetch) : null;
  if (!model) throw new AppError('SPEECH_UNAVAILABLE');
  let audio: Buffer | null = null;
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > AUDIO_MAX_BYTES) throw new AppError('AUDIO_TOO_LARGE');
      chunks.push(chunk);
    }
    if (part.fieldname === 'audio') audio = Buffer.concat(chunks);
  }
  if (!audio || audio.length === 0) throw new AppError('AUDIO_EMPTY');
  try {
    const result = await transcribe({
      model,
      audio,
      abortSignal: AbortSignal.timeout(ctx.config.CHAT_PROVIDER_TIMEOUT_SECONDS * 1000),
      maxRetries: 0,
    });
    return result.text.trim();
  } catch (error) {
    ctx.log.warn({ err: error }, 'transcription failed');
    throw new AppError(
      (error as Error).name === 'TimeoutError' ? 'PROVIDER_TIMEOUT' : providerErrorCode(error),
    );
  }
}
