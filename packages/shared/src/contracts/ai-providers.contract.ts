import { z } from 'zod';
import { requiredText, singleLineText } from './fields.ts';
import { defineContract } from './route-contract.ts';

/**
 * Who writes a chat's answers. `builtin` is the extractive answerer of the embedded default (no model, no network);
 * the others are language models reached through the Vercel AI SDK with the company's own key.
 */
export const ANSWER_PROVIDERS = ['builtin', 'openai', 'mistral', 'qwen', 'ollama', 'compatible'] as const;
export type AnswerProvider = (typeof ANSWER_PROVIDERS)[number];
export const MODEL_PROVIDERS = ['openai', 'mistral', 'qwen', 'ollama', 'compatible'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** What each model provider needs and proposes; base URLs of `compatible` are the company's own. */
export const PROVIDER_DEFAULTS: Record<
  ModelProvider,
  { baseUrl: string | null; model: string; transcriptionModel: string | null; needsKey: boolean }
> = {
  openai: {
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4o-mini',
    transcriptionModel: 'whisper-1',
    needsKey: true,
  },
  mistral: {
    baseUrl: 'https://api.mistral.ai/v1',
    model: 'mistral-small-latest',
    transcriptionModel: null,
    needsKey: true,
  },
  qwen: {
    baseUrl: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1',
    model: 'qwen-plus',
    transcriptionModel: null,
    needsKey: true,
  },
  ollama: {
    baseUrl: 'http://localhost:11434/v1',
    model: 'llama3.1',
    transcriptionModel: null,
    needsKey: false,
  },
  compatible: { baseUrl: null, model: '', transcriptionModel: null, needsKey: false },
};

/**
 * The endpoint a provider's base URL names (the provider's default when none is given), normalized so that two
 * spellings of the same address compare equal: host case, default port, trailing slashes, numeric IPv4 forms.
 */
export function providerEndpoint(provider: ModelProvider, baseUrl: string | null | undefined): string {
  const raw = (baseUrl?.trim() || PROVIDER_DEFAULTS[provider].baseUrl || '').replace(/\/+$/, '');
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}${u.search}`;
  } catch {
    return raw;
  }
}

/**
 * Whether a saved key may go to this base URL: only to the endpoint it was saved for. A changed base URL needs the
 * key entered again, so that nobody who may edit the settings can send the saved key to an address of their choice.
 */
export function sameProviderEndpoint(
  provider: ModelProvider,
  a: string | null | undefined,
  b: string | null | undefined,
): boolean {
  return providerEndpoint(provider, a) === providerEndpoint(provider, b);
}

/** The chat screens that open with a provider chosen (spec: /custom-training, /mistralai, /qwen). */
export const PROVIDER_OF_CHAT_PATH: Record<string, AnswerProvider> = {
  '/custom-training': 'openai',
  '/mistralai': 'mistral',
  '/employee/mistralai': 'mistral',
  '/qwen': 'qwen',
};

export const aiProviderSchema = z
  .object({
    provider: z.enum(MODEL_PROVIDERS),
    baseUrl: z.string().nullable(),
    model: z.string(),
    /** Model of the OpenAI-compatible /audio/transcriptions endpoint; null: this provider does not transcribe. */
    transcriptionModel: z.string().nullable(),
    /** The saved key, masked (`sk-…7f3a`); the key itself never leaves the server. */
    apiKeyMasked: z.string().nullable(),
    isDefault: z.boolean(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'AiProvider' });
export type AiProviderSettings = z.infer<typeof aiProviderSchema>;

const url = singleLineText(500).refine((v) => /^https?:\/\/[^\s]+$/i.test(v), { message: 'validation.url' });

export const aiProviderBodySchema = z.strictObject({
  baseUrl: url.nullable().optional(),
  /** Absent or empty: keep the saved key, which is only ever sent to the base URL it was saved for. */
  apiKey: singleLineText(500).optional(),
  model: requiredText(200),
  transcriptionModel: singleLineText(200).nullable().optional(),
  isDefault: z.boolean().optional(),
});
export type AiProviderBody = z.infer<typeof aiProviderBodySchema>;

export const providerParams = z.object({ provider: z.enum(MODEL_PROVIDERS) });

export const connectionTestSchema = z
  .object({
    ok: z.boolean(),
    /** The models the endpoint lists, for the model choice (empty when it lists none). */
    models: z.array(z.string()),
    /** Why the test failed, in the caller's language. */
    message: z.string().nullable(),
  })
  .meta({ id: 'ConnectionTest' });
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

const tags = ['ai-providers'];
const permission = { action: 'update', subject: 'Company' } as const;

export const aiProviderContracts = {
  list: defineContract({
    method: 'GET',
    path: '/ai-providers',
    operationId: 'listAiProviders',
    summary: "The company's language-model providers, keys masked",
    tags,
    permission: { action: 'read', subject: 'Company' },
    responses: { 200: z.object({ items: z.array(aiProviderSchema) }) },
  }),
  save: defineContract({
    method: 'PUT',
    path: '/ai-providers/:provider',
    operationId: 'saveAiProvider',
    summary: 'Sets a provider: base URL, key (encrypted at rest), model, transcription model',
    tags,
    permission,
    params: providerParams,
    body: aiProviderBodySchema,
    responses: { 200: aiProviderSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/ai-providers/:provider',
    operationId: 'deleteAiProvider',
    summary: 'Removes a provider and its key; chats that used it answer with the built-in answerer',
    tags,
    permission,
    params: providerParams,
    responses: { 204: z.undefined() },
  }),
  test: defineContract({
    method: 'POST',
    path: '/ai-providers/:provider/test',
    operationId: 'testAiProvider',
    summary:
      "Tests the connection with the given settings (or the saved key) by listing the endpoint's models",
    tags,
    permission,
    params: providerParams,
    body: aiProviderBodySchema.partial({ model: true }),
    responses: { 200: connectionTestSchema },
  }),
};
