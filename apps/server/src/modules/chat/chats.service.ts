import {
  type AnswerProvider,
  type Chat,
  type ChatBody,
  type ChatOptions,
  type ChatSource,
  type Language,
  MODEL_PROVIDERS,
  type ModelProvider,
} from '@werkwissen/shared';
import { type SQL, sql } from 'drizzle-orm';
import { chatAccess } from '../../access/chat.access.ts';
import { divisionAccess } from '../../access/division.access.ts';
import { fileAccess } from '../../access/file.access.ts';
import { homeCompany } from '../../access/resource-access.ts';
import type { AppContext } from '../../app-context.ts';
import { type Actor, loadUserActor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { randomToken } from '../../core/token-crypto.ts';
import { containsPattern } from '../../db/like.ts';
import { translate } from '../../i18n/translator.ts';
import {
  listProviders,
  type StoredConnection,
  speechConnection,
  storedConnectionColumn,
} from '../ai-providers/ai-providers.service.ts';
import type { SearchScope } from '../search/search-scope.ts';

/** A chat as the answer pipeline needs it. */
export interface ChatRecord {
  id: string;
  companyId: string;
  companyName: string | null;
  ownerId: string;
  name: string;
  visibility: 'private' | 'public';
  provider: AnswerProvider;
  source: ChatSource;
  divisionIds: string[];
  /** The saved settings of the chat's model provider, read with the chat (null: builtin, or not configured). */
  providerSettings: StoredConnection | null;
}

/**
 * Which chats an actor sees, in SQL from their Chat rules: by default their own, and their company's public chats
 * every division of which they may read. Another user's private chat is invisible (404, never 403).
 */
const visibleChat = (actor: Actor): SQL => chatAccess.where(actor, 'read', 'c');

interface ChatRow extends Record<string, unknown> {
  id: string;
  company_id: string;
  owner_id: string;
  name: string;
  visibility: 'private' | 'public';
  provider: AnswerProvider;
  source: ChatSource;
  share_token: string | null;
  created_at: string | Date;
  owner_name: string;
  divisions: Array<{ id: string; name: string }>;
  can_ask: boolean;
  can_manage: boolean;
  message_count: number | string;
  last_message_at: string | Date | null;
}

const iso = (v: string | Date) => new Date(v).toISOString();

function chatColumns(actor: Actor): SQL {
  return sql`c.id, c.company_id, c.owner_id, c.name, c.visibility, c.provider, c.source, c.share_token, c.created_at,
    trim(u.first_name || ' ' || u.last_name) as owner_name,
    (select coalesce(json_agg(json_build_object('id', d.id, 'name', d.name) order by d.name), '[]'::json)
       from chat_divisions cd join divisions d on d.id = cd.division_id where cd.chat_id = c.id) as divisions,
    exists (select 1 from files f where f.company_id = c.company_id and f.active_generation is not null
       and (c.source = 'whatsapp' or f.division_id in (select cd.division_id from chat_divisions cd where cd.chat_id = c.id))
       and ${fileAccess.where(actor, 'read', 'f')}) as can_ask,
    ${chatAccess.where(actor, 'update', 'c')} as can_manage,
    (select count(*) from chat_messages m join chat_threads t on t.id = m.thread_id
       where t.chat_id = c.id and t.user_id = ${actor.userId}) as message_count,
    (select max(m.created_at) from chat_messages m join chat_threads t on t.id = m.thread_id
       where t.chat_id = c.id and t.user_id = ${actor.userId}) as last_message_at`;
}

function present(row: ChatRow, actor: Actor): Chat {
  const isOwner = row.owner_id === actor.userId;
  const canManage = row.can_manage;
  return {
    id: row.id,
    name: row.name,
    visibility: row.visibility,
    provider: row.provider,
    source: row.source,
    divisions: row.divisions,
    isOwner,
    canManage,
    ownerName: row.owner_name,
    shareToken: canManage && row.visibility === 'public' ? row.share_token : null,
    canAsk: row.can_ask,
    messageCount: Number(row.message_count),
    lastMessageAt: row.last_message_at ? iso(row.last_message_at) : null,
    createdAt: iso(row.created_at),
  };
}

export async function listChats(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; pageSize: number; q?: string },
) {
  const where = sql`${visibleChat(actor)} ${query.q ? sql`and c.name ilike ${containsPattern(query.q)}` : sql``}`;
  const [{ rows }, { rows: total }] = await Promise.all([
    ctx.db.execute<ChatRow>(sql`select * from (select ${chatColumns(actor)} from chats c join users u on u.id = c.owner_id
      where ${where}) x order by coalesce(x.last_message_at, x.created_at) desc, x.id
      limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`),
    ctx.db.execute<{ n: number | string }>(sql`select count(*) as n from chats c where ${where}`),
  ]);
  return {
    items: rows.map((r) => present(r, actor)),
    total: Number(total[0]?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function getChat(ctx: AppContext, actor: Actor, chatId: string): Promise<Chat> {
  return chatWhere(ctx, actor, sql`c.id = ${chatId} and ${visibleChat(actor)}`);
}

async function chatWhere(ctx: AppContext, actor: Actor, where: SQL): Promise<Chat> {
  const { rows } = await ctx.db.execute<ChatRow>(sql`select ${chatColumns(actor)}
    from chats c join users u on u.id = c.owner_id where ${where}`);
  if (!rows[0]) throw notFound();
  return present(rows[0], actor);
}

/**
 * A chat the actor just changed, as it is now: also when the change took it out of their sight (a data manager who
 * made an employee's chat private gets the result, not 404).
 */
const changedChat = (ctx: AppContext, actor: Actor, chat: ChatRecord) =>
  chatWhere(ctx, actor, sql`c.id = ${chat.id} and c.company_id = ${chat.companyId}`);

/** The chat matching a condition on `chats c`, with its divisions and company name, or null. */
export async function chatRecordWhere(ctx: AppContext, where: SQL): Promise<ChatRecord | null> {
  const { rows } = await ctx.db.execute<{
    id: string;
    company_id: string;
    company_name: string | null;
    owner_id: string;
    name: string;
    visibility: 'private' | 'public';
    provider: AnswerProvider;
    source: ChatSource;
    division_ids: string[];
    provider_settings: StoredConnection | null;
  }>(sql`select c.id, c.company_id, co.name as company_name, c.owner_id, c.name, c.visibility, c.provider, c.source,
      array(select cd.division_id from chat_divisions cd where cd.chat_id = c.id) as division_ids,
      ${storedConnectionColumn(sql`c.company_id`, sql`c.provider`)} as provider_settings
    from chats c join companies co on co.id = c.company_id where ${where}`);
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    companyId: row.company_id,
    companyName: row.company_name,
    ownerId: row.owner_id,
    name: row.name,
    visibility: row.visibility,
    provider: row.provider,
    source: row.source,
    divisionIds: row.division_ids,
    providerSettings: row.provider_settings,
  };
}

/** A visible chat with its divisions, for asking; 404 when the actor may not see it. */
export async function loadChat(ctx: AppContext, actor: Actor, chatId: string): Promise<ChatRecord> {
  const chat = await chatRecordWhere(ctx, sql`c.id = ${chatId} and ${visibleChat(actor)}`);
  if (!chat) throw notFound();
  return chat;
}

/**
 * What a chat's answers may draw on: the files of its divisions the asker may read (by default, for an employee, only
 * in the divisions still assigned to them); a WhatsApp chat has no divisions of its own and draws on every file the
 * asker may read.
 */
export function chatScope(chat: ChatRecord, actor: Actor): SearchScope {
  return {
    companyId: chat.companyId,
    divisionIds: chat.source === 'whatsapp' ? null : chat.divisionIds,
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
  const { rows } = await ctx.db.execute(
    sql`select 1 from chats c where c.id = ${chat.id} and ${chatAccess.where(owner, 'read', 'c')}`,
  );
  return rows.length > 0 ? chatScope(chat, owner) : nothing;
}

/** Whether a ready file exists in a scope ("Please upload a file first to start the chat." otherwise). */
export async function scopeHasReadyFile(ctx: AppContext, scope: SearchScope): Promise<boolean> {
  const { rows } = await ctx.db.execute(sql`select 1 from files f where f.company_id = ${scope.companyId}
    and f.active_generation is not null
    ${scope.divisionIds ? sql`and f.division_id = any(${sql.param(scope.divisionIds)}::uuid[])` : sql``}
    ${scope.files ? sql`and ${scope.files}` : sql``} limit 1`);
  return rows.length > 0;
}

/** A chat draws on divisions of its company that its author may read; any other is not found. */
async function assertDivisionsReadable(
  ctx: AppContext,
  actor: Actor,
  companyId: string,
  divisionIds: string[],
) {
  const { rows } = await ctx.db.execute<{ n: number | string }>(sql`select count(*) as n from divisions d
    where d.company_id = ${companyId} and d.id = any(${sql.param(divisionIds)}::uuid[])
      and ${divisionAccess.where(actor, 'read', 'd')}`);
  if (Number(rows[0]?.n ?? 0) !== new Set(divisionIds).size) throw notFound();
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
  const chatId = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{
      id: string;
    }>(sql`insert into chats (company_id, owner_id, name, visibility, provider)
      values (${companyId}, ${actor.userId}, ${body.name}, ${body.visibility}, ${body.provider}) returning id`);
    const id = rows[0]!.id;
    await tx.execute(sql`insert into chat_divisions (chat_id, division_id)
      select ${id}, unnest(${sql.param(divisionIds)}::uuid[])`);
    await tx.execute(
      sql`insert into chat_threads (company_id, chat_id, user_id) values (${companyId}, ${id}, ${actor.userId})`,
    );
    return id;
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
  const chat = await chatRecordWhere(ctx, sql`c.id = ${chatId}`);
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
  // A WhatsApp chat draws on everything its owner may read: it is never shared.
  if (chat.source === 'whatsapp' && body.visibility === 'public') throw new AppError('CHAT_WHATSAPP_PRIVATE');
  const divisionIds = body.divisionIds ? [...new Set(body.divisionIds)] : undefined;
  // Making a chat public, or changing what a public chat draws on, publishes: making it private never does.
  const publishes =
    (body.visibility === 'public' && chat.visibility !== 'public') ||
    (divisionIds !== undefined && (body.visibility ?? chat.visibility) === 'public');
  if (publishes) await chatAccess.authorize(ctx.db, actor, 'publish', chat.id);
  if (divisionIds) await assertDivisionsReadable(ctx, actor, chat.companyId, divisionIds);
  if (body.provider) await assertProviderConfigured(ctx, chat.companyId, body.provider);
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`update chats set
      name = coalesce(${body.name ?? null}, name),
      visibility = coalesce(${body.visibility ?? null}, visibility),
      provider = coalesce(${body.provider ?? null}, provider),
      share_token = case when ${body.visibility ?? null}::text = 'private' then null else share_token end,
      updated_at = now()
      where id = ${chat.id}`);
    if (divisionIds) {
      await tx.execute(sql`delete from chat_divisions where chat_id = ${chat.id}`);
      await tx.execute(sql`insert into chat_divisions (chat_id, division_id)
        select ${chat.id}, unnest(${sql.param(divisionIds)}::uuid[])`);
    }
  });
  return changedChat(ctx, actor, chat);
}

export async function deleteChat(ctx: AppContext, actor: Actor, chatId: string): Promise<void> {
  const chat = await chatFor(ctx, actor, chatId, 'delete');
  await ctx.db.execute(sql`delete from chats where id = ${chat.id}`);
}

/** A new share link (the old one stops working); only public chats are shared. */
export async function shareChat(ctx: AppContext, actor: Actor, chatId: string): Promise<Chat> {
  const chat = await chatFor(ctx, actor, chatId, 'publish');
  if (chat.visibility !== 'public') throw new AppError('CHAT_NOT_PUBLIC');
  await ctx.db.execute(
    sql`update chats set share_token = ${randomToken(24)}, updated_at = now() where id = ${chat.id}`,
  );
  return changedChat(ctx, actor, chat);
}

/** Ends the share link: whoever may change the chat (its owner, the company's data manager) may take it back. */
export async function revokeShare(ctx: AppContext, actor: Actor, chatId: string): Promise<Chat> {
  const chat = await chatFor(ctx, actor, chatId, 'update');
  await ctx.db.execute(sql`update chats set share_token = null, updated_at = now() where id = ${chat.id}`);
  return changedChat(ctx, actor, chat);
}

/** The actor's own thread in a chat, created on first use (one statement: asking is a hot path). */
export async function threadOf(ctx: AppContext, chat: ChatRecord, userId: string): Promise<string> {
  const { rows } = await ctx.db.execute<{ id: string }>(sql`with created as (
      insert into chat_threads (company_id, chat_id, user_id) values (${chat.companyId}, ${chat.id}, ${userId})
      on conflict do nothing returning id)
    select id from created union all
    select id from chat_threads where chat_id = ${chat.id} and user_id = ${userId}`);
  return rows[0]!.id;
}

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
