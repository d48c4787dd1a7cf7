import { type ErrorCode, type ModelProvider, PROVIDER_DEFAULTS } from '@werkwissen/shared';
import type { LanguageModel, TranscriptionModel } from 'ai';
import { isBlockedByPolicy } from '../outbound/outbound-fetch.ts';

/** The `fetch` every provider call goes through: the process's outbound policy (`AppContext.outbound.fetch`). */
export type ProviderFetch = typeof globalThis.fetch;

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
 * OpenAI-compatible server also speaks; Qwen, Ollama and vLLM use the compatible provider; Mistral its own. The
 * provider packages (and the AI SDK, by their callers) are loaded on first use: a server without a model never needs
 * them, and they are among its largest.
 */
export async function languageModelOf(c: ProviderConnection, fetch: ProviderFetch): Promise<LanguageModel> {
  const apiKey = c.apiKey ?? undefined;
  switch (c.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ baseURL: c.baseUrl, apiKey: apiKey ?? 'none', fetch }).chat(c.model);
    }
    case 'mistral': {
      const { createMistral } = await import('@ai-sdk/mistral');
      return createMistral({ baseURL: c.baseUrl, apiKey: apiKey ?? 'none', fetch })(c.model);
    }
    default: {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({ name: c.provider, baseURL: c.baseUrl, apiKey, fetch })(c.model);
    }
  }
}

/** The OpenAI-compatible `/audio/transcriptions` model of a provider that has a transcription model. */
export async function transcriptionModelOf(
  c: ProviderConnection,
  fetch: ProviderFetch,
): Promise<TranscriptionModel | null> {
  if (!c.transcriptionModel) return null;
  const { createOpenAI } = await import('@ai-sdk/openai');
  return createOpenAI({ baseURL: c.baseUrl, apiKey: c.apiKey ?? 'none', fetch }).transcription(
    c.transcriptionModel,
  );
}

/** The HTTP status a provider answered with, from an AI SDK `APICallError` or anything that carries one. */
function statusOf(error: unknown): number | null {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const status = (e as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number') return status;
  }
  return null;
}

/**
 * What users may learn of a failed provider call: that the policy refused the address, that the key was refused
 * (401/403), or else only that it failed (`fallback`). Never the provider's body, status or socket error, which would
 * let a user probe what the server can reach.
 */
export function providerErrorCode(error: unknown, fallback: ErrorCode = 'PROVIDER_ERROR'): ErrorCode {
  if (isBlockedByPolicy(error)) return 'PROVIDER_BLOCKED';
  const status = statusOf(error);
  if (status === 401 || status === 403) return 'PROVIDER_KEY_REFUSED';
  return fallback;
}

/**
 * Tests a connection by listing the endpoint's models (`GET {baseUrl}/models`, which OpenAI, Mistral, Qwen's
 * compatible mode, Ollama and vLLM all serve): cheap, and it fills the model choice. A failure says only why in the
 * terms of `providerErrorCode`; the endpoint's answer and the socket error stay out of it.
 */
export async function listModels(
  fetch: ProviderFetch,
  baseUrl: string,
  apiKey: string | null,
  timeoutMs = 10_000,
): Promise<{ ok: true; models: string[] } | { ok: false; code: ErrorCode; detail: string }> {
  try {
    const res = await fetch(`${baseUrl}/models`, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) {
      // Only frees the connection: the refusal below is the answer, whether or not the body could be dropped.
      await res.body?.cancel().catch(() => {});
      const code = res.status === 401 || res.status === 403 ? 'PROVIDER_KEY_REFUSED' : 'PROVIDER_ERROR';
      return { ok: false, code, detail: `HTTP ${res.status}` };
    }
    const body = (await res.json()) as { data?: Array<{ id?: unknown }>; models?: Array<{ name?: unknown }> };
    const ids = (body.data ?? []).map((m) => m.id).concat((body.models ?? []).map((m) => m.name));
    return { ok: true, models: ids.filter((id): id is string => typeof id === 'string').sort() };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    const detail = e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message);
    return { ok: false, code: providerErrorCode(error), detail };
  }
}
