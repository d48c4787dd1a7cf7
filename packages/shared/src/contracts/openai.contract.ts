import { z } from 'zod';
import { QUESTION_MAX_LENGTH } from './chats.contract.ts';
import { multiLineText, plainText } from './fields.ts';
import { defineContract } from './route-contract.ts';

/**
 * The OpenAI-compatible Chat Completions door (docs/connect/openai.md): an OpenAI client's base URL is
 * `<server>/api/v1/openai/v1`, its key a personal API key. A model is what the key's user may ask: the company's
 * knowledge (`werkwissen`: every division they may read) or one chat they may use (`chat-<chat id>`).
 */
export const OPENAI_DEFAULT_MODEL = 'werkwissen';
const CHAT_MODEL_PREFIX = 'chat-';

export const chatModelId = (chatId: string) => `${CHAT_MODEL_PREFIX}${chatId}`;

/** The chat a model id names, or null for the default model or a name that is none of ours. */
export function chatIdOfModel(model: string): string | null {
  if (!model.startsWith(CHAT_MODEL_PREFIX)) return null;
  const id = model.slice(CHAT_MODEL_PREFIX.length);
  return z.uuid().safeParse(id).success ? id : null;
}

export const OPENAI_ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const;

/** Longest text of one message (an earlier answer the client sends back); the question itself is shorter. */
const MESSAGE_MAX_LENGTH = 100_000;

/**
 * A part of a message's content: text (`type: 'text'`) is read; any other kind (an image, audio, none named) is
 * refused where it is the question and left out of the conversation elsewhere.
 */
const contentPartSchema = z.looseObject({
  type: plainText(40).optional(),
  text: multiLineText(MESSAGE_MAX_LENGTH).optional(),
});

const openAiMessageSchema = z.looseObject({
  role: z.enum(OPENAI_ROLES),
  content: z
    .union([multiLineText(MESSAGE_MAX_LENGTH), z.array(contentPartSchema).max(100)])
    .nullable()
    .optional(),
  name: plainText(200).optional(),
});
export type OpenAiMessage = z.infer<typeof openAiMessageSchema>;

/** A message's text: a string, or its text parts joined; null when it holds anything but text. */
export function messageText(message: Pick<OpenAiMessage, 'content'>): string | null {
  const content = message.content;
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (content.some((p) => p.type !== 'text' || typeof p.text !== 'string')) return null;
  return content.map((p) => p.text).join('');
}

/**
 * OpenAI's request body. What we cannot honour (temperature, top_p, max_tokens, tools, seed, …: the answer is the
 * product's, written from the documents) is accepted and ignored; only one choice (`n` 1) is written. The last
 * message is the question: a user's text, as long as a chat question may be.
 */
export const chatCompletionBodySchema = z
  .looseObject({
    model: plainText(200).min(1, { message: 'validation.required' }),
    messages: z
      .array(openAiMessageSchema, { message: 'validation.required' })
      .min(1, { message: 'validation.required' })
      .max(500),
    stream: z.boolean().nullable().optional(),
    stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
    n: z.literal(1, { message: 'validation.invalid' }).nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    max_tokens: z.number().int().min(1).nullable().optional(),
    max_completion_tokens: z.number().int().min(1).nullable().optional(),
    user: plainText(256).optional(),
  })
  .superRefine((body, ctx) => {
    const last = body.messages.length - 1;
    const question = body.messages[last];
    if (!question) return;
    const path = ['messages', last, 'content'];
    const text = messageText(question);
    if (question.role !== 'user' || text === null) {
      ctx.addIssue({ code: 'custom', path, message: 'validation.invalid' });
    } else if (!text.trim()) {
      ctx.addIssue({ code: 'custom', path, message: 'validation.required' });
    } else if (text.length > QUESTION_MAX_LENGTH) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'string',
        maximum: QUESTION_MAX_LENGTH,
        inclusive: true,
        path,
        message: 'validation.tooLong',
      });
    }
  });
export type ChatCompletionBody = z.infer<typeof chatCompletionBodySchema>;

/** A passage the answer cites as `[n]` (our extension of OpenAI's shape, at the top level of the completion). */
export const openAiCitationSchema = z
  .object({
    n: z.number().int(),
    passage_id: z.uuid(),
    file_id: z.uuid(),
    file_name: z.string(),
    division_id: z.uuid(),
    page: z.number().int().nullable(),
    heading_path: z.array(z.string()),
    text: z.string().nullable(),
  })
  .meta({ id: 'OpenAiCitation' });
export type OpenAiCitation = z.infer<typeof openAiCitationSchema>;

/**
 * Usage as OpenAI reports it (tokens estimated at four characters each: the built-in answerer counts none), and what
 * the call took of the plan: one question, and the month's questions so far against the plan's cap (null: no cap).
 */
export const openAiUsageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  questions: z.number().int(),
  questions_this_month: z.number().int(),
  questions_per_month: z.number().int().nullable(),
});
export type OpenAiUsage = z.infer<typeof openAiUsageSchema>;

export const chatCompletionSchema = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number().int(),
    model: z.string(),
    system_fingerprint: z.null(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        message: z.object({
          role: z.literal('assistant'),
          content: z.string(),
          refusal: z.null(),
        }),
        logprobs: z.null(),
        finish_reason: z.enum(['stop', 'length']),
      }),
    ),
    usage: openAiUsageSchema,
    citations: z.array(openAiCitationSchema),
  })
  .meta({ id: 'ChatCompletion' });
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

export const openAiModelSchema = z
  .object({
    id: z.string(),
    object: z.literal('model'),
    created: z.number().int(),
    owned_by: z.string(),
    /** What the model answers from: the chat's name, or the company's name for the default model. */
    name: z.string(),
  })
  .meta({ id: 'OpenAiModel' });
export type OpenAiModel = z.infer<typeof openAiModelSchema>;

/**
 * OpenAI's error body: `code` is one of our stable error codes, `message` in the key's user's language; `details`
 * (our extension) as in our own error body, e.g. every refused field of a request.
 */
export const openAiErrorBodySchema = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string(),
      code: z.string(),
      param: z.string().nullable(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'OpenAiErrorBody' });
export type OpenAiErrorBody = z.infer<typeof openAiErrorBodySchema>;

const tags = ['openai'];
const permission = { action: 'read', subject: 'Chat' } as const;

export const openAiContracts = {
  models: defineContract({
    method: 'GET',
    path: '/openai/v1/models',
    operationId: 'listOpenAiModels',
    summary:
      'OpenAI-compatible: the models the caller may ask (`werkwissen`: all divisions they may read; `chat-<id>`: one of their chats)',
    tags,
    permission,
    errorBody: openAiErrorBodySchema,
    responses: { 200: z.object({ object: z.literal('list'), data: z.array(openAiModelSchema) }) },
  }),
  completions: defineContract({
    method: 'POST',
    path: '/openai/v1/chat/completions',
    operationId: 'createChatCompletion',
    summary:
      'OpenAI-compatible chat completion: a cited answer from the documents; with `stream: true` server-sent `data:` chunks (`chat.completion.chunk`), then `data: [DONE]`',
    tags,
    permission,
    errorBody: openAiErrorBodySchema,
    body: chatCompletionBodySchema,
    responses: { 200: chatCompletionSchema },
  }),
};
