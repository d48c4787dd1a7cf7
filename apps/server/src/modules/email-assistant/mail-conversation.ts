import { sql } from 'drizzle-orm';
import { chatAccess } from '../../access/chat.access.ts';
import type { AppContext } from '../../app-context.ts';
import { type Actor, loadUserActor } from '../../core/actor.ts';
import type { emailInbound, emailSettings } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { type ChatRecord, findChatRecord } from '../chat/chats.queries.ts';
import { threadOf } from '../chat/chats.service.ts';
import { bareSubject } from './mail-classify.ts';

/** The longest chat name (the chats contract's). */
const CHAT_NAME_MAX = 80;

type Setting = typeof emailSettings.$inferSelect;
type Inbound = typeof emailInbound.$inferSelect;

export interface Conversation {
  id: string;
  chat: ChatRecord;
  /** Where its questions and answers are stored: the asker's own thread when they have an account, else the owner's. */
  threadId: string;
  /** The asker's user when the company has one for their address who may open the chat (then offered the link). */
  account: Actor | null;
}

/** A conversation's chat name: its subject and who started it, within the chat name's length. */
export function conversationName(subject: string, sender: string, noSubject: string): string {
  const topic = bareSubject(subject) || noSubject;
  const room = Math.max(20, CHAT_NAME_MAX - sender.length - 3);
  const short = topic.length > room ? `${topic.slice(0, room - 1).trimEnd()}…` : topic;
  return `${short} · ${sender}`.slice(0, CHAT_NAME_MAX);
}

/**
 * The company's one enabled user with this address who may read the chat (two with the same address are nobody).
 * The sender was allowed and not found forged (`mail-classify.ts`), and a link is only ever mailed to that address.
 */
async function accountOf(ctx: AppContext, chat: ChatRecord, address: string): Promise<Actor | null> {
  const { rows } = await ctx.db.execute<{ id: string }>(sql`select u.id from users u
    where u.company_id = ${chat.companyId} and lower(u.email) = ${address} and u.disabled_at is null limit 2`);
  if (rows.length !== 1) return null;
  const actor = await loadUserActor(ctx.db, rows[0]!.id, null);
  if (!actor) return null;
  const { rows: readable } = await ctx.db.execute(
    sql`select 1 from chats c where c.id = ${chat.id} and ${chatAccess.where(actor, 'read', 'c')}`,
  );
  return readable.length > 0 ? actor : null;
}

/**
 * The conversation of a mail's thread (its first Message-ID), made on its first mail: a chat of the setting's owner
 * named by the subject and the sender, over the setting's division, source "email", private when the setting is
 * (then only its data manager sees it), else public in the company; with the company's default provider.
 */
export async function conversationOf(
  ctx: AppContext,
  setting: Setting,
  owner: Actor,
  mail: Inbound,
): Promise<Conversation> {
  const root = mail.references[0] ?? mail.messageId;
  const name = conversationName(
    mail.subject,
    mail.fromAddress,
    translate(owner.language, 'mailAssistant.noSubject'),
  );
  const found = await ctx.db.transaction(async (tx) => {
    // Two mails of a new thread answered at once make one conversation.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${setting.id} ${root}`}, 0))`);
    const { rows } = await tx.execute<{ id: string; chat_id: string }>(sql`select id, chat_id
      from email_conversations where setting_id = ${setting.id} and root_message_id = ${root}`);
    if (rows[0]) return rows[0];
    const { rows: chat } = await tx.execute<{ id: string }>(sql`insert into chats
        (company_id, owner_id, name, visibility, provider, source)
      values (${setting.companyId}, ${setting.ownerId}, ${name}, ${setting.isPrivate ? 'private' : 'public'},
        coalesce((select provider from ai_providers where company_id = ${setting.companyId} and is_default
          limit 1), 'builtin'), 'email')
      returning id`);
    const chatId = chat[0]!.id;
    await tx.execute(
      sql`insert into chat_divisions (chat_id, division_id) values (${chatId}, ${setting.divisionId})`,
    );
    const { rows: made } = await tx.execute<{
      id: string;
      chat_id: string;
    }>(sql`insert into email_conversations
        (setting_id, company_id, chat_id, root_message_id, sender, subject)
      values (${setting.id}, ${setting.companyId}, ${chatId}, ${root}, ${mail.fromAddress},
        ${mail.subject.slice(0, 998)})
      returning id, chat_id`);
    return made[0]!;
  });
  const chat = await findChatRecord(ctx.db, { id: found.chat_id });
  if (!chat) throw new Error('conversation chat vanished');
  const account = await accountOf(ctx, chat, mail.fromAddress);
  return {
    id: found.id,
    chat,
    threadId: await threadOf(ctx, chat, account?.userId ?? owner.userId),
    account,
  };
}
