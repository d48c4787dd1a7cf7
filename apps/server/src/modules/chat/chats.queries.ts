import type { AnswerProvider, ChatSource, ChatVisibility } from '@werkwissen/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import { chatDivisions, chats, chatThreads, companies } from '../../db/schema/index.ts';
import { type StoredConnection, storedConnectionColumn } from '../ai-providers/ai-providers.queries.ts';
import type { SearchScope } from '../search/search-scope.ts';

/** A chat as the answer pipeline needs it. */
export interface ChatRecord {
  id: string;
  companyId: string;
  companyName: string | null;
  ownerId: string;
  name: string;
  visibility: ChatVisibility;
  provider: AnswerProvider;
  source: ChatSource;
  shareToken: string | null;
  divisionIds: string[];
  /** The saved settings of the chat's model provider, read with the chat (null: builtin, or not configured). */
  providerSettings: StoredConnection | null;
}

/** Which chat records to find; every condition given must hold. */
export interface ChatRecordFilter {
  id?: string;
  companyId?: string;
  shareToken?: string;
  visibility?: ChatVisibility;
  /** Only a chat of a company that is not suspended. */
  activeCompany?: boolean;
  /** An access fragment on `chats c` (compiled from the reader's rules). */
  among?: SQL;
}

/** A chat as a person sees it in the list and on its page. */
export interface ChatView {
  id: string;
  companyId: string;
  ownerId: string;
  name: string;
  visibility: ChatVisibility;
  provider: AnswerProvider;
  source: ChatSource;
  shareToken: string | null;
  createdAt: Date;
  ownerName: string;
  divisions: Array<{ id: string; name: string }>;
  canAsk: boolean;
  canManage: boolean;
  /** The viewer's own messages in the chat. */
  messageCount: number;
  lastMessageAt: Date | null;
}

/** Who looks at chats: their own thread is counted; the fragments are compiled from their rules. */
export interface ChatViewer {
  userId: string;
  /** The files they may read, on `files f`. */
  readableFiles: SQL;
  /** The chats they may change, on `chats c`. */
  manageable: SQL;
}

/** Which chat views to find: an access fragment on `chats c`, or a company's chat by id, and a name search. */
export type ChatViewFilter = { among: SQL; id?: string; q?: string } | { id: string; companyId: string };

/** The columns of `chats c` that every read of a chat returns. */
interface ChatRow extends Record<string, unknown> {
  id: string;
  company_id: string;
  owner_id: string;
  name: string;
  visibility: ChatVisibility;
  provider: AnswerProvider;
  source: ChatSource;
  share_token: string | null;
}

interface ChatViewRow extends ChatRow {
  created_at: string | Date;
  owner_name: string;
  divisions: Array<{ id: string; name: string }>;
  can_ask: boolean;
  can_manage: boolean;
  message_count: number | string;
  last_message_at: string | Date | null;
}

/** The chats that draw on everything their owner may read, having no divisions of their own. */
export const REACHES_ALL: readonly ChatSource[] = ['whatsapp', 'api'];

function viewColumns(viewer: ChatViewer): SQL {
  return sql`c.id, c.company_id, c.owner_id, c.name, c.visibility, c.provider, c.source, c.share_token, c.created_at,
    trim(u.first_name || ' ' || u.last_name) as owner_name,
    (select coalesce(json_agg(json_build_object('id', d.id, 'name', d.name) order by d.name), '[]'::json)
       from chat_divisions cd join divisions d on d.id = cd.division_id where cd.chat_id = c.id) as divisions,
    exists (select 1 from files f where f.company_id = c.company_id and f.active_generation is not null
       and (c.source = any(${sql.param(REACHES_ALL)}::text[]) or f.division_id in (select cd.division_id from chat_divisions cd where cd.chat_id = c.id))
       and ${viewer.readableFiles}) as can_ask,
    ${viewer.manageable} as can_manage,
    (select count(*) from chat_messages m join chat_threads t on t.id = m.thread_id
       where t.chat_id = c.id and t.user_id = ${viewer.userId}) as message_count,
    (select max(m.created_at) from chat_messages m join chat_threads t on t.id = m.thread_id
       where t.chat_id = c.id and t.user_id = ${viewer.userId}) as last_message_at`;
}

const toView = (row: ChatViewRow): ChatView => ({
  id: row.id,
  companyId: row.company_id,
  ownerId: row.owner_id,
  name: row.name,
  visibility: row.visibility,
  provider: row.provider,
  source: row.source,
  shareToken: row.share_token,
  createdAt: new Date(row.created_at),
  ownerName: row.owner_name,
  divisions: row.divisions,
  canAsk: row.can_ask,
  canManage: row.can_manage,
  messageCount: Number(row.message_count),
  lastMessageAt: row.last_message_at ? new Date(row.last_message_at) : null,
});

function viewWhere(filter: ChatViewFilter): SQL {
  if (!('among' in filter)) return sql`c.id = ${filter.id} and c.company_id = ${filter.companyId}`;
  return sql.join(
    [
      filter.id === undefined ? undefined : sql`c.id = ${filter.id}`,
      filter.among,
      filter.q ? sql`c.name ilike ${containsPattern(filter.q)}` : undefined,
    ].filter((part) => part !== undefined),
    sql` and `,
  );
}

/** A page of the chats a viewer sees, the most recently used first, and how many there are. */
export async function listChatViews(
  db: DbOrTx,
  viewer: ChatViewer,
  filter: ChatViewFilter,
  page: { limit: number; offset: number },
): Promise<{ items: ChatView[]; total: number }> {
  const where = viewWhere(filter);
  const [{ rows }, { rows: total }] = await Promise.all([
    db.execute<ChatViewRow>(sql`select * from (select ${viewColumns(viewer)} from chats c join users u on u.id = c.owner_id
      where ${where}) x order by coalesce(x.last_message_at, x.created_at) desc, x.id
      limit ${page.limit} offset ${page.offset}`),
    db.execute<{ n: number | string }>(sql`select count(*) as n from chats c where ${where}`),
  ]);
  return { items: rows.map(toView), total: Number(total[0]?.n ?? 0) };
}

/** One chat as a viewer sees it, or null. */
export async function findChatView(
  db: DbOrTx,
  viewer: ChatViewer,
  filter: ChatViewFilter,
): Promise<ChatView | null> {
  const { rows } = await db.execute<ChatViewRow>(sql`select ${viewColumns(viewer)}
    from chats c join users u on u.id = c.owner_id where ${viewWhere(filter)}`);
  return rows[0] ? toView(rows[0]) : null;
}

function recordWhere(filter: ChatRecordFilter): SQL {
  return sql.join(
    [
      filter.id === undefined ? undefined : sql`c.id = ${filter.id}`,
      filter.companyId === undefined ? undefined : sql`c.company_id = ${filter.companyId}`,
      filter.shareToken === undefined ? undefined : sql`c.share_token = ${filter.shareToken}`,
      filter.visibility === undefined ? undefined : sql`c.visibility = ${filter.visibility}`,
      filter.activeCompany ? sql`co.suspended_at is null` : undefined,
      filter.among,
    ].filter((part) => part !== undefined),
    sql` and `,
  );
}

interface ChatRecordRow extends ChatRow {
  company_name: string | null;
  division_ids: string[];
  provider_settings: StoredConnection | null;
}

const recordSelect = (filter: ChatRecordFilter) => sql`select c.id, c.company_id, co.name as company_name,
    c.owner_id, c.name, c.visibility, c.provider, c.source, c.share_token,
    array(select cd.division_id from chat_divisions cd where cd.chat_id = c.id) as division_ids,
    ${storedConnectionColumn(sql`c.company_id`, sql`c.provider`)} as provider_settings
  from chats c join companies co on co.id = c.company_id where ${recordWhere(filter)}`;

/** The chat matching a filter, with its divisions, company name and provider settings (one statement), or null. */
export async function findChatRecord(db: DbOrTx, filter: ChatRecordFilter): Promise<ChatRecord | null> {
  const { rows } = await db.execute<ChatRecordRow>(recordSelect(filter));
  return rows[0] ? toRecord(rows[0]) : null;
}

/**
 * The chat matching a filter, as `findChatRecord` reads it, and a user's thread in it, created on first use, in one
 * statement (asking is a hot path: the chat's read and the thread's upsert were two round trips in turn); null when
 * no chat matches (no thread is made then). A thread a parallel first question inserted after this statement's
 * snapshot is read again, as `userThread` does.
 */
export async function findChatRecordWithThread(
  db: DbOrTx,
  filter: ChatRecordFilter,
  userId: string,
): Promise<{ chat: ChatRecord; threadId: string } | null> {
  const { rows } = await db.execute<ChatRecordRow & { thread_id: string | null }>(sql`
    with chat as (${recordSelect(filter)}),
    created as (
      insert into chat_threads (company_id, chat_id, user_id) select company_id, id, ${userId}::uuid from chat
      on conflict do nothing returning id
    )
    select chat.*, coalesce((select id from created),
      (select t.id from chat_threads t where t.chat_id = chat.id and t.user_id = ${userId})) as thread_id
    from chat`);
  const row = rows[0];
  if (!row) return null;
  const chat = toRecord(row);
  return { chat, threadId: row.thread_id ?? (await userThread(db, chat, userId)) };
}

function toRecord(row: ChatRecordRow): ChatRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    companyName: row.company_name,
    ownerId: row.owner_id,
    name: row.name,
    visibility: row.visibility,
    provider: row.provider,
    source: row.source,
    shareToken: row.share_token,
    divisionIds: row.division_ids,
    providerSettings: row.provider_settings,
  };
}

/** Whether a chat passes an access fragment on `chats c`. */
export async function chatPasses(db: DbOrTx, chatId: string, among: SQL): Promise<boolean> {
  const { rows } = await db.execute(sql`select 1 from chats c where c.id = ${chatId} and ${among}`);
  return rows.length > 0;
}

/** Whether a ready file exists in a scope (the files a chat's answers may draw on). */
export async function scopeHasReadyFile(db: DbOrTx, scope: SearchScope): Promise<boolean> {
  const { rows } = await db.execute(sql`select 1 from files f where f.company_id = ${scope.companyId}
    and f.active_generation is not null
    ${scope.divisionIds ? sql`and f.division_id = any(${sql.param(scope.divisionIds)}::uuid[])` : sql``}
    ${scope.files ? sql`and ${scope.files}` : sql``} limit 1`);
  return rows.length > 0;
}

/** How many of some divisions of a company pass an access fragment on `divisions d`. */
export async function countDivisionsAmong(
  db: DbOrTx,
  companyId: string,
  divisionIds: string[],
  among: SQL,
): Promise<number> {
  const { rows } = await db.execute<{ n: number | string }>(sql`select count(*) as n from divisions d
    where d.company_id = ${companyId} and d.id = any(${sql.param(divisionIds)}::uuid[]) and ${among}`);
  return Number(rows[0]?.n ?? 0);
}

async function insertChatDivisions(db: DbOrTx, chatId: string, divisionIds: string[]): Promise<void> {
  if (divisionIds.length === 0) return;
  await db.insert(chatDivisions).values(divisionIds.map((divisionId) => ({ chatId, divisionId })));
}

/** A new web chat over some divisions, with its owner's thread; its id. */
export async function insertChat(
  db: DbOrTx,
  chat: {
    companyId: string;
    ownerId: string;
    name: string;
    visibility: ChatVisibility;
    provider: AnswerProvider;
    divisionIds: string[];
  },
): Promise<string> {
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(chats)
      .values({
        companyId: chat.companyId,
        ownerId: chat.ownerId,
        name: chat.name,
        visibility: chat.visibility,
        provider: chat.provider,
      })
      .returning({ id: chats.id });
    const id = created!.id;
    await insertChatDivisions(tx, id, chat.divisionIds);
    await tx.insert(chatThreads).values({ companyId: chat.companyId, chatId: id, userId: chat.ownerId });
    return id;
  });
}

/** Changes the fields given; making a chat private ends its share link; new divisions replace the old ones. */
export async function updateChatFields(
  db: DbOrTx,
  chatId: string,
  change: { name?: string; visibility?: ChatVisibility; provider?: AnswerProvider; divisionIds?: string[] },
): Promise<void> {
  const divisionIds = change.divisionIds;
  await db.transaction(async (tx) => {
    await tx
      .update(chats)
      .set({
        name: change.name,
        visibility: change.visibility,
        provider: change.provider,
        // A private chat has no link and no website widget: made public again, both start afresh.
        ...(change.visibility === 'private' ? { shareToken: null, widgetEnabled: false } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(chats.id, chatId));
    if (divisionIds) {
      await tx.delete(chatDivisions).where(eq(chatDivisions.chatId, chatId));
      await insertChatDivisions(tx, chatId, divisionIds);
    }
  });
}

export async function deleteChatRow(db: DbOrTx, chatId: string): Promise<void> {
  await db.delete(chats).where(eq(chats.id, chatId));
}

/** Sets (or, with null, ends) a chat's share link. */
export async function setShareToken(db: DbOrTx, chatId: string, token: string | null): Promise<void> {
  await db.update(chats).set({ shareToken: token, updatedAt: sql`now()` }).where(eq(chats.id, chatId));
}

/** A user's thread in a chat, created on first use (one statement: asking is a hot path). */
export async function userThread(
  db: DbOrTx,
  chat: Pick<ChatRecord, 'id' | 'companyId'>,
  userId: string,
): Promise<string> {
  const existing = sql`select id from chat_threads where chat_id = ${chat.id} and user_id = ${userId}`;
  return createdOrExisting(
    db,
    sql`insert into chat_threads (company_id, chat_id, user_id) values (${chat.companyId}, ${chat.id}, ${userId})
      on conflict do nothing`,
    existing,
  );
}

/**
 * The id of the row an `insert ... on conflict do nothing` makes, or of the one `existing` finds, in one statement. On
 * PostgreSQL a parallel request may have inserted the row after this statement's snapshot was taken: the insert then
 * does nothing and the statement cannot see the row yet, so it is read again (a new statement sees every committed row).
 */
async function createdOrExisting(db: DbOrTx, insert: SQL, existing: SQL): Promise<string> {
  const { rows } = await db.execute<{ id: string }>(
    sql`with created as (${insert} returning id) select id from created union all ${existing}`,
  );
  if (rows[0]) return rows[0].id;
  const { rows: again } = await db.execute<{ id: string }>(existing);
  return again[0]!.id;
}

/** The chats a user has one of, created on first use: the WhatsApp chat and the OpenAI-compatible API's default. */
export type OwnChatSource = Extract<ChatSource, 'whatsapp' | 'api'>;
const OWN_CHAT_NAME: Record<OwnChatSource, string> = { whatsapp: 'WhatsApp', api: 'API' };

/**
 * A user's one private chat of a source, created on first use with the given provider (one statement: parallel
 * first messages find the same chat); its id.
 */
export async function ownChatOfSource(
  db: DbOrTx,
  owner: { companyId: string; userId: string },
  source: OwnChatSource,
  provider: AnswerProvider,
): Promise<string> {
  const existing = sql`select id from chats where owner_id = ${owner.userId} and source = ${source}`;
  return createdOrExisting(
    db,
    sql`insert into chats (company_id, owner_id, name, visibility, provider, source)
      values (${owner.companyId}, ${owner.userId}, ${OWN_CHAT_NAME[source]}, 'private', ${provider}, ${source})
      on conflict (owner_id) where source = ${source} do nothing`,
    existing,
  );
}

/** A visitor's one thread in a chat, created on first use (parallel first messages find the same thread); its id. */
export async function visitorThread(
  db: DbOrTx,
  chat: Pick<ChatRecord, 'id' | 'companyId'>,
  visitorId: string,
): Promise<string> {
  const existing = sql`select id from chat_threads where visitor_id = ${visitorId}`;
  return createdOrExisting(
    db,
    sql`insert into chat_threads (company_id, chat_id, visitor_id) values (${chat.companyId}, ${chat.id}, ${visitorId})
      on conflict do nothing`,
    existing,
  );
}

/** Whether a company is suspended (its share links then answer PUBLIC_CHAT_SUSPENDED). */
export async function companySuspended(db: DbOrTx, companyId: string): Promise<boolean> {
  const [company] = await db
    .select({ suspendedAt: companies.suspendedAt })
    .from(companies)
    .where(eq(companies.id, companyId));
  return company?.suspendedAt != null;
}
