import { chatAccess } from '../../access/chat.access.ts';
import type { AppContext } from '../../app-context.ts';
import { type Actor, loadUserActor } from '../../core/actor.ts';
import { enabledUsersByEmail } from '../../core/users.queries.ts';
import type { emailInbound, emailSettings } from '../../db/schema/index.ts';
import { translate } from '../../i18n/translator.ts';
import { type ChatRecord, chatPasses, findChatRecord } from '../chat/chats.queries.ts';
import { threadOf } from '../chat/chats.service.ts';
import { conversationByRoot, insertConversation, lockThread } from './email-conversations.queries.ts';
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
  const users = await enabledUsersByEmail(ctx.db, chat.companyId, address, 2);
  if (users.length !== 1) return null;
  const actor = await loadUserActor(ctx.db, users[0]!, null);
  if (!actor) return null;
  return (await chatPasses(ctx.db, chat.id, chatAccess.where(actor, 'read', 'c'))) ? actor : null;
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
    await lockThread(tx, setting.id, root);
    return (
      (await conversationByRoot(tx, setting.id, root)) ??
      (await insertConversation(tx, {
        settingId: setting.id,
        companyId: setting.companyId,
        ownerId: setting.ownerId,
        divisionId: setting.divisionId,
        name,
        visibility: setting.isPrivate ? 'private' : 'public',
        root,
        sender: mail.fromAddress,
        subject: mail.subject.slice(0, 998),
      }))
    );
  });
  const chat = await findChatRecord(ctx.db, { id: found.chatId });
  if (!chat) throw new Error('conversation chat vanished');
  const account = await accountOf(ctx, chat, mail.fromAddress);
  return {
    id: found.id,
    chat,
    threadId: await threadOf(ctx, chat, account?.userId ?? owner.userId),
    account,
  };
}
