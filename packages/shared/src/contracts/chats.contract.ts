import { z } from 'zod';
import { ANSWER_PROVIDERS, MODEL_PROVIDERS } from './ai-providers.contract.ts';
import { feedbackSchema } from './feedback.contract.ts';
import { multiLineText, requiredText } from './fields.ts';
import { defineContract, listOf, listQuerySchema, uuidParam } from './route-contract.ts';

export const CHAT_VISIBILITIES = ['private', 'public'] as const;
export type ChatVisibility = (typeof CHAT_VISIBILITIES)[number];

/**
 * Where a chat's conversation happens: the web app, a user's one WhatsApp chat (over all they may read), an e-mail
 * setting's mailbox (the e-mail assistant), or a user's one chat of the OpenAI-compatible API's default model (over
 * all they may read).
 */
export const CHAT_SOURCES = ['web', 'whatsapp', 'email', 'api'] as const;
export type ChatSource = (typeof CHAT_SOURCES)[number];

/**
 * An answer's state: `streaming` while it is written, `complete`, `stopped` by the asker, or `interrupted` when the
 * provider failed mid-answer (the partial text is kept).
 */
export const MESSAGE_STATUSES = ['streaming', 'complete', 'stopped', 'interrupted'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Longest question accepted, in characters. */
export const QUESTION_MAX_LENGTH = 4000;

export const chatDivisionSchema = z.object({ id: z.uuid(), name: z.string() });

export const chatSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    visibility: z.enum(CHAT_VISIBILITIES),
    provider: z.enum(ANSWER_PROVIDERS),
    source: z.enum(CHAT_SOURCES),
    divisions: z.array(chatDivisionSchema),
    /** The caller created the chat. */
    isOwner: z.boolean(),
    /**
     * The caller's roles let them change, make private, unshare and delete this chat (its owner; the company's data
     * manager for any chat they see). Publishing (making public, a new share link) is the `publish` permission.
     */
    canManage: z.boolean(),
    ownerName: z.string(),
    /** The share link's token (for those who manage the chat; public chats with an active link). */
    shareToken: z.string().nullable(),
    /** A ready file exists in the chat's divisions, so questions can be asked. */
    canAsk: z.boolean(),
    messageCount: z.number().int(),
    lastMessageAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Chat' });
export type Chat = z.infer<typeof chatSchema>;

export const chatBodySchema = z.strictObject({
  name: requiredText(80),
  visibility: z.enum(CHAT_VISIBILITIES).default('private'),
  provider: z.enum(ANSWER_PROVIDERS).default('builtin'),
  divisionIds: z.array(z.uuid()).min(1, { message: 'validation.required' }).max(200),
});
export type ChatBody = z.input<typeof chatBodySchema>;

export const chatUpdateSchema = z
  .strictObject({
    name: requiredText(80).optional(),
    visibility: z.enum(CHAT_VISIBILITIES).optional(),
    provider: z.enum(ANSWER_PROVIDERS).optional(),
    divisionIds: z.array(z.uuid()).min(1, { message: 'validation.required' }).max(200).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'validation.required' });

/** A passage an answer cites as `[n]`; the text is null once its file was deleted or replaced. */
export const citationSchema = z
  .object({
    n: z.number().int(),
    passageId: z.uuid(),
    fileId: z.uuid(),
    fileName: z.string(),
    divisionId: z.uuid(),
    page: z.number().int().nullable(),
    headingPath: z.array(z.string()),
    text: z.string().nullable(),
  })
  .meta({ id: 'Citation' });
export type Citation = z.infer<typeof citationSchema>;

export const chatMessageSchema = z
  .object({
    id: z.uuid(),
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    status: z.enum(MESSAGE_STATUSES),
    /** Why an answer was interrupted (an error code, its message translated). */
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    /** No passage answered the question: the answer says so instead of guessing. */
    noAnswer: z.boolean(),
    citations: z.array(citationSchema),
    provider: z.enum(ANSWER_PROVIDERS).nullable(),
    model: z.string().nullable(),
    /** The caller's feedback on this answer. */
    feedback: feedbackSchema.nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ChatMessage' });
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const askBodySchema = z.strictObject({
  content: multiLineText(QUESTION_MAX_LENGTH).min(1, { message: 'validation.required' }),
});

/**
 * The server-sent events of a streamed answer (design/api.md): `start` names the stored question and answer,
 * `token` appends text, `citation` announces a passage the first time the answer cites it, `error` ends an answer
 * that failed (its partial text is kept), `done` closes every stream with the stored answer.
 */
export const chatStreamEventSchemas = {
  start: z.object({ questionId: z.uuid(), messageId: z.uuid() }),
  token: z.object({ text: z.string() }),
  citation: citationSchema,
  error: z.object({ code: z.string(), message: z.string() }),
  done: chatMessageSchema,
};
export type ChatStreamEvent = {
  [K in keyof typeof chatStreamEventSchemas]: { event: K; data: z.infer<(typeof chatStreamEventSchemas)[K]> };
}[keyof typeof chatStreamEventSchemas];

/** What the chat screen may offer: providers the company configured and whether voice input works. */
export const chatOptionsSchema = z
  .object({
    providers: z.array(z.object({ provider: z.enum(ANSWER_PROVIDERS), model: z.string().nullable() })),
    defaultProvider: z.enum(ANSWER_PROVIDERS),
    speech: z.object({
      available: z.boolean(),
      provider: z.enum(MODEL_PROVIDERS).nullable(),
      /** Why voice input is unavailable (translated), null when it works. */
      reason: z.string().nullable(),
    }),
  })
  .meta({ id: 'ChatOptions' });
export type ChatOptions = z.infer<typeof chatOptionsSchema>;

const tags = ['chats'];
const chatParams = uuidParam('chatId');
const messageParams = z.object({ chatId: z.uuid(), messageId: z.uuid() });
const streamResponse = z.string().meta({
  description:
    'text/event-stream: events start, token, citation, error and done (whose data is the stored answer).',
});
const readChat = { action: 'read', subject: 'Chat' } as const;

export const chatContracts = {
  options: defineContract({
    method: 'GET',
    path: '/chat-options',
    operationId: 'chatOptions',
    summary: "The answer providers the caller's company configured, and whether voice input is available",
    tags,
    permission: readChat,
    responses: { 200: chatOptionsSchema },
  }),
  list: defineContract({
    method: 'GET',
    path: '/chats',
    operationId: 'listChats',
    summary: "The caller's chats and the company's public chats within the caller's divisions, newest first",
    tags,
    permission: readChat,
    querystring: listQuerySchema,
    responses: { 200: listOf(chatSchema) },
  }),
  create: defineContract({
    method: 'POST',
    path: '/chats',
    operationId: 'createChat',
    summary:
      'Starts a chat over some of the divisions the caller may use (public only with the publish permission)',
    tags,
    permission: { action: 'create', subject: 'Chat' },
    body: chatBodySchema,
    responses: { 201: chatSchema },
  }),
  get: defineContract({
    method: 'GET',
    path: '/chats/:chatId',
    operationId: 'getChat',
    summary: "A chat (another user's private chat answers 404)",
    tags,
    permission: readChat,
    params: chatParams,
    responses: { 200: chatSchema },
  }),
  update: defineContract({
    method: 'PATCH',
    path: '/chats/:chatId',
    operationId: 'updateChat',
    summary:
      "Renames a chat or changes its visibility, provider or divisions (owner or data manager; making it public, or changing a public chat's divisions, needs the publish permission)",
    tags,
    permission: { action: 'update', subject: 'Chat' },
    params: chatParams,
    body: chatUpdateSchema,
    responses: { 200: chatSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    path: '/chats/:chatId',
    operationId: 'deleteChat',
    summary: 'Deletes a chat with its history (owner or data manager); feedback on it stays in the reports',
    tags,
    permission: { action: 'delete', subject: 'Chat' },
    params: chatParams,
    responses: { 204: z.undefined() },
  }),
  share: defineContract({
    method: 'POST',
    path: '/chats/:chatId/share',
    operationId: 'shareChat',
    summary: 'Creates a new share link for a public chat (publish permission; an earlier link stops working)',
    tags,
    permission: { action: 'update', subject: 'Chat' },
    params: chatParams,
    responses: { 200: chatSchema },
  }),
  unshare: defineContract({
    method: 'DELETE',
    path: '/chats/:chatId/share',
    operationId: 'revokeChatShare',
    summary: "Revokes a public chat's share link (owner or data manager)",
    tags,
    permission: { action: 'update', subject: 'Chat' },
    params: chatParams,
    responses: { 200: chatSchema },
  }),
  messages: defineContract({
    method: 'GET',
    path: '/chats/:chatId/messages',
    operationId: 'listChatMessages',
    summary: "The caller's conversation in a chat, oldest first",
    tags,
    permission: readChat,
    params: chatParams,
    responses: { 200: z.object({ items: z.array(chatMessageSchema) }) },
  }),
  ask: defineContract({
    method: 'POST',
    path: '/chats/:chatId/messages',
    operationId: 'askChat',
    summary: 'Asks a question; the cited answer streams back as server-sent events',
    tags,
    permission: readChat,
    params: chatParams,
    body: askBodySchema,
    responses: { 200: streamResponse },
  }),
  regenerate: defineContract({
    method: 'POST',
    path: '/chats/:chatId/messages/:messageId/regenerate',
    operationId: 'regenerateAnswer',
    summary: 'Answers the question of an answer again, replacing it; streamed like asking',
    tags,
    permission: readChat,
    params: messageParams,
    responses: { 200: streamResponse },
  }),
  transcribe: defineContract({
    method: 'POST',
    path: '/chats/:chatId/transcriptions',
    operationId: 'transcribeVoice',
    summary:
      "Transcribes a recorded voice message (multipart field `audio`) through the company's provider, for editing before it is sent",
    tags,
    permission: readChat,
    params: chatParams,
    multipart: true,
    responses: { 200: z.object({ text: z.string() }) },
  }),
};
