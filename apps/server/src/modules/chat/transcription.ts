import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { speechConnection } from '../ai-providers/ai-providers.service.ts';
import { providerErrorCode, transcriptionModelOf } from '../ai-providers/model-client.ts';

/** OpenAI's transcription endpoint takes files up to 25 MB. */
export const AUDIO_MAX_BYTES = 25 * 1024 * 1024;

/**
 * Transcribes recorded speech (the chat's voice input, a WhatsApp voice note) through the company's provider that
 * has a transcription model; the format is recognised from the bytes. The chat gives the text back for editing,
 * never straight into the conversation.
 */
export async function transcribeAudio(ctx: AppContext, companyId: string, audio: Buffer): Promise<string> {
  const connection = await speechConnection(ctx, companyId);
  const model = connection ? await transcriptionModelOf(connection, ctx.outbound.fetch) : null;
  if (!model) throw new AppError('SPEECH_UNAVAILABLE');
  if (audio.length === 0) throw new AppError('AUDIO_EMPTY');
  if (audio.length > AUDIO_MAX_BYTES) throw new AppError('AUDIO_TOO_LARGE');
  try {
    const { transcribe } = await import('ai');
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
