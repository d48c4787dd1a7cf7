import {
  type AnswerProvider,
  type Chat,
  type ChatBody,
  type ChatOptions,
  type Language,
  MODEL_PROVIDERS,
  type ModelProvider,
} from '@werkwissen/shared';
import type { SQL } from 'drizzle-orm';
import { chatAccess } from '../../access/chat.access.ts';
import { divisionAccess } from '../../access/division.access.ts';
import { fileAccess } from '../../access/file.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import { type Actor, loadUserActor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { randomToken } from '../../core/token-crypto.ts';
import { translate } from '../../i18n/translator.ts';
import { listProviders, speechConnection } from '../ai-providers/ai-providers.service.ts';
import type { SearchScope } from '../search/search-scope.ts';
import {
  type ChatRecord,
  type ChatView,
  type ChatViewer,
  type ChatViewFilter,
  chatPasses,
  countDivisionsAmong,
  deleteChatRow,
  findChatRecord,
  findChatRecordWithThread,
  findChatView,
  insertChat,
  listChatViews,
  ownChatOfSource,
  REACHES_ALL,
  setShareToken,
  updateChatFields,
  userThread,
} from './chats.queries.ts';

/**
 * Which chats an actor sees, in SQL from their Chat rules: by default their own, and their company's public chats
 * every division of which they may read. Another user's private chat is invisible (404, never 403).
 */
const visibleChat = (actor: Actor): SQL => chatAccess.where(actor, 'read', 'c');

/** The actor as a viewer of chats: the files and chats their rules let them read and change. */
const viewerOf = (actor: Actor): ChatViewer => ({
  userId: actor.userId,
  readableFiles: fileAccess.where(actor, 'read', 'f'),
  manageable: chatAccess.where(actor, 'update', 'c'),
});

function present(view: ChatView, actor: Actor): Chat {
  const canManage = view.canManage;
  return {
    id: view.id,
    name: view.name,
    visibility: view.visibility,
    provider: view.provider,
    source: view.source,
    divisions: view.divisions,
    isOwner: view.ownerId === actor.userId,
    canManage,
    ownerName: view.ownerName,
    shareToken: canManage && view.visibility === 'public' ? view.shareToken : null,
    canAsk: view.canAsk,
    messageCount: view.messageCount,
    lastMessageAt: view.lastMessageAt?.toISOString() ?? null,
    createdAt: view.createdAt.toISOString(),
  };
}

export async function listChats(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string },
) {
  const { items, total } = await listChatViews(
    ctx.db,
    viewerOf(actor),
    { among: visibleChat(actor), q: query.q },
    { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
  );
  return { items: items.map((v) => present(v, actor)), total, page: query.page, pageSize: query.pageSize };
}

export async function getChat(ctx: AppContext, actor: Actor, chatId: string): Promise<Chat> {
  return chatWhere(ctx, actor, { id: chatId, among: visibleChat(actor) });
}

async function chatWhere(ctx: AppContext, actor: Actor, filter: ChatViewFilter): Promise<Chat> {
  const view = await findChatView(ctx.db, viewerOf(actor), filter);
  if (!view) throw notFound();
  return present(view, actor);
}

/**
 * A chat the actor just changed, as it is now: also when the change took it out of their sight (a data manager who
 * made an employee's chat private gets the result, not 404).
 */
const changedChat = (ctx: AppContext, actor: Actor, chat: ChatRecord) =>
  chatWhere(ctx, actor, { id: chat.id, companyId: chat.companyId });

/** A visible chat with its divisions, for asking; 404 when the actor may not see it. */
export async function loadChat(ctx: AppContext, actor: Actor, chatId: string): Promise<ChatRecord> {
  const chat = await findChatRecord(ctx.db, { id: chatId, among: visibleChat(actor) });
  if (!chat) throw notFound();
  return chat;
}

/** A chat the actor may see, with their own thread in it (created on first use), in one statement; else 404. */
export async function loadChatWithThread(
  ctx: AppContext,
  actor: Actor,
  chatId: string,
): Promise<{ chat: ChatRecord; threadId: string }> {
  const found = await findChatRecordWithThread(
    ctx.db,
    { id: chatId, among: visibleChat(actor) },
    actor.userId,
  );
  if (!found) throw notFound();
  return found;
}

/**
 * What a chat's answers may draw on: the files of its divisions the asker may read (by default, for an employee, only
 * in the divisions still assigned to them); a WhatsApp or API chat has no divisions of its own and draws on every
 * file the asker may read.
 */
export function chatScope(chat: ChatRecord, actor: Actor): SearchScope {
  return {
    companyId: chat.companyId,
    divisionIds: REACHES_ALL.includes(chat.source) ? null : chat.divisionIds,
    files: fileAccess.where(actor, 'read', 'f'),
  };
}

/**
 * What a public chat answers its visitors from: the chat's divisions its owner may still use (an employee owner
 * only those still assigned), nothing once the owner is disabled, gone or no longer allowed to read the chat. A
 * share link must never reach further than its owner can.
 */
export async function ownerScope(ctx: AppContext, chat: ChatRecord): Promise<SearchScope> {
  const nothing = { companyId: chat.companyId, divisionIds: [] };
  const owner = await loadUserActor(ctx.db, chat.ownerId, null);
  if (!owner) return nothing;
  return (await chatPasses(ctx.db, chat.id, chatAccess.where(owner, 'read', 'c')))
    ? chatScope(chat, owner)
    : nothing;
}

/** A chat draws on divisions of its company that its author may read; any other is not found. */
async function assertDivisionsReadable(
  ctx: AppContext,
  actor: Actor,
  companyId: string,
  divisionIds: string[],
) {
  const readable = await countDivisionsAmong(
    ctx.db,
    companyId,
    divisionIds,
    divisionAccess.where(actor, 'read', 'd'),
  );
  if (readable !== new Set(divisionIds).size) throw notFound();
}

async function assertProviderConfigured(ctx: AppContext, companyId: string, provider: AnswerProvider) {
  if (provider === 'builtin') return;
  const configured = await listProviders(ctx, companyId);
  if (!configured.some((p) => p.provider === provider)) throw new AppError('PROVIDER_NOT_CONFIGURED');
}

export async function createChat(ctx: AppContext, actor: Actor, body: Required<ChatBody>): Promise<Chat> {
  const companyId = homeCompany(actor);
  const chat = { companyId, userId: actor.userId, visibility: body.visibility };
  chatAccess.assertCan(actor, 'create', chat);
  if (body.visibility === 'public') chatAccess.assertCan(actor, 'publish', chat);
  const divisionIds = [...new Set(body.divisionIds)];
  await assertDivisionsReadable(ctx, actor, companyId, divisionIds);
  await assertProviderConfigured(ctx, companyId, body.provider);
  const chatId = await insertChat(ctx.db, {
    companyId,
    ownerId: actor.userId,
    name: body.name,
    visibility: body.visibility,
    provider: body.provider,
    divisionIds,
  });
  return getChat(ctx, actor, chatId);
}

/**
 * A visible chat the actor's roles allow the action on (others may see a public chat without being allowed to
 * change it: 403; a chat they do not see: 404), checked in SQL against the stored chat.
 */
async function chatFor(
  ctx: AppContext,
  actor: Actor,
  chatId: string,
  action: 'update' | 'delete' | 'publish',
): Promise<ChatRecord> {
  await chatAccess.authorize(ctx.db, actor, action, chatId);
  const chat = await findChatRecord(ctx.db, { id: chatId });
  if (!chat) throw notFound();
  return chat;
}

export async function updateChat(
  ctx: AppContext,
  actor: Actor,
  chatId: string,
  body: {
    name?: string;
    visibility?: 'private' | 'public';
    provider?: AnswerProvider;
    divisionIds?: string[];
  },
): Promise<Chat> {
  const chat = await chatFor(ctx, actor, chatId, 'update');
  // A WhatsApp or API chat draws on everything its owner may read: it is never shared.
  if (REACHES_ALL.includes(chat.source) && body.visibility === 'public')
    throw new AppError(chat.source === 'api' ? 'CHAT_API_PRIVATE' : 'CHAT_WHATSAPP_PRIVATE');
  const divisionIds = body.divisionIds ? [...new Set(body.divisionIds)] : undefined;
  // Making a chat public, or changing what a public chat draws on, publishes: making it private never does.
  const publishes =
    (body.visibility === 'public' && chat.visibility !== 'public') ||
    (divisionIds !== undefined && (body.visibility ?? chat.visibility) === 'public');
  if (publishes) await chatAccess.authorize(ctx.db, actor, 'publish', chat.id);
  if (divisionIds) await assertDivisionsReadable(ctx, actor, chat.companyId, divisionIds);
  if (body.provider) await assertProviderConfigured(ctx, chat.companyId, body.provider);
  await updateChatFields(ctx.db, chat.id, {
    name: body.name,
    visibility: body.visibility,
    provider: body.provider,
    divisionIds,
  });
  return changedChat(ctx, actor, chat);
}

export async function deleteChat(ctx: AppContext, actor: Actor, chatId: string): Promise<void> {
  const chat = await chatFor(ctx, actor, chatId, 'delete');
  await deleteChatRow(ctx.db, chat.id);
}

/** A new share link (the old one stops working); only public chats are shared. */
export async function shareChat(ctx: AppContext, actor: Actor, chatId: string): Promise<Chat> {
  const chat = await chatFor(ctx, actor, chatId, 'publish');
  if (chat.visibility !== 'public') throw new AppError('CHAT_NOT_PUBLIC');
  await setShareToken(ctx.db, chat.id, randomToken(24));
  return changedChat(ctx, actor, chat);
}

/** Ends the share link: whoever may change the chat (its owner, the company's data manager) may take it back. */
export async function revokeShare(ctx: AppContext, actor: Actor, chatId: string): Promise<Chat> {
  const chat = await chatFor(ctx, actor, chatId, 'update');
  await setShareToken(ctx.db, chat.id, null);
  return changedChat(ctx, actor, chat);
}

/** The company's default provider (else the built-in answerer), which a chat made for the actor answers with. */
async function defaultProvider(ctx: AppContext, companyId: string): Promise<AnswerProvider> {
  return (await listProviders(ctx, companyId)).find((p) => p.isDefault)?.provider ?? 'builtin';
}

/**
 * The user's one WhatsApp chat (over everything they may read), created on their first message with the company's
 * default provider.
 */
export async function whatsappChat(ctx: AppContext, companyId: string, userId: string): Promise<string> {
  return ownChatOfSource(ctx.db, { companyId, userId }, 'whatsapp', await defaultProvider(ctx, companyId));
}

/**
 * The actor's one chat of the OpenAI-compatible API's default model (over everything they may read), created on
 * first use with the company's default provider, with their thread in it.
 */
export async function apiChat(
  ctx: AppContext,
  actor: Actor,
): Promise<{ chat: ChatRecord; threadId: string }> {
  const companyId = homeCompany(actor);
  chatAccess.assertCan(actor, 'create', { companyId, userId: actor.userId, visibility: 'private' });
  const id = await ownChatOfSource(
    ctx.db,
    { companyId, userId: actor.userId },
    'api',
    await defaultProvider(ctx, companyId),
  );
  return loadChatWithThread(ctx, actor, id);
}

/** The actor's own thread in a chat, created on first use. */
export const threadOf = (ctx: AppContext, chat: ChatRecord, userId: string): Promise<string> =>
  userThread(ctx.db, chat, userId);

export async function chatOptions(ctx: AppContext, actor: Actor, lang: Language): Promise<ChatOptions> {
  const companyId = homeCompany(actor);
  const configured = await listProviders(ctx, companyId);
  const speech = await speechConnection(ctx, companyId);
  const fallback = configured.find((p) => p.isDefault);
  return {
    providers: [
      { provider: 'builtin', model: null },
      ...configured.map((p) => ({ provider: p.provider as AnswerProvider, model: p.model })),
    ],
    defaultProvider: fallback?.provider ?? 'builtin',
    speech: speech
      ? { available: true, provider: speech.provider, reason: null }
      : { available: false, provider: null, reason: translate(lang, 'errors.SPEECH_UNAVAILABLE') },
  };
}

export const isModelProvider = (p: AnswerProvider): p is ModelProvider =>
  (MODEL_PROVIDERS as readonly string[]).includes(p);
