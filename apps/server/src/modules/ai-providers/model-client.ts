import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type ModelProvider, PROVIDER_DEFAULTS } from '@werkwissen/shared';
import type { LanguageModel, TranscriptionModel } from 'ai';

/** A company's provider as the answer pipeline uses it: the key already decrypted. */
export interface ProviderConnection {
  provider: ModelProvider;
  baseUrl: string;
  apiKey: string | null;
  model: string;
  transcriptionModel: string | null;
}

export function baseUrlOf(provider: ModelProvider, baseUrl: string | null): string {
  return (baseUrl ?? PROVIDER_DEFAULTS[provider].baseUrl ?? '').replace(/\/+$/, '');
}

/**
 * The AI SDK model of a provider. OpenAI goes through its chat-completions API (`.chat`), which every
 * OpenAI-compatible server also speaks; Qwen, Ollama and vLLM use the compatible provider; Mistral its own.
 */
export function languageModelOf(c: ProviderConnection): LanguageModel {
  const apiKey = c.apiKey ?? undefined;
  switch (c.provider) {
    case 'openai':
      return createOpenAI({ baseURL: c.baseUrl, apiKey: apiKey ?? 'none' }).chat(c.model);
    case 'mistral':
      return createMistral({ baseURL: c.baseUrl, apiKey: apiKey ?? 'none' })(c.model);
    default:
      return createOpenAICompatible({ name: c.provider, baseURL: c.baseUrl, apiKey })(c.model);
  }
}

/** The OpenAI-compatible `/audio/transcriptions` model of a provider that has a transcription model. */
export function transcriptionModelOf(c: ProviderConnection): TranscriptionModel | null {
  if (!c.transcriptionModel) return null;
  return createOpenAI({ baseURL: c.baseUrl, apiKey: c.apiKey ?? 'none' }).transcription(c.transcriptionModel);
}

/**
 * Tests a connection by listing the endpoint's models (`GET {baseUrl}/models`, which OpenAI, Mistral, Qwen's
 * compatible mode, Ollama and vLLM all serve): cheap, and it fills the model choice.
 */
export async function listModels(
  baseUrl: string,
  apiKey: string | null,
  timeoutMs = 10_000,
): Promise<{ ok: true; models: string[] } | { ok: false; reason: string }> {
  try {
    const res = await fetch(`${baseUrl}/models`, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) {
      let reason = text.slice(0, 200);
      try {
        const body = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
        reason =
          (typeof body.error === 'string' ? body.error : body.error?.message) ?? body.message ?? reason;
      } catch {}
      return { ok: false, reason: `HTTP ${res.status}${reason ? `: ${reason}` : ''}` };
    }
    const body = JSON.parse(text) as { data?: Array<{ id?: unknown }>; models?: Array<{ name?: unknown }> };
    const ids = (body.data ?? []).map((m) => m.id).concat((body.models ?? []).map((m) => m.name));
    return { ok: true, models: ids.filter((id): id is string => typeof id === 'string').sort() };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    return { ok: false, reason: e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message) };
  }
}
