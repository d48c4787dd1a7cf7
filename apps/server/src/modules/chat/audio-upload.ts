import type { FastifyRequest } from 'fastify';
import { AppError } from '../../core/app-error.ts';
import { AUDIO_MAX_BYTES } from './transcription.ts';

/** The multipart field `audio` of a voice-input request, read into memory up to the transcription limit. */
export async function readAudioUpload(request: FastifyRequest): Promise<Buffer> {
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
  return audio;
}
