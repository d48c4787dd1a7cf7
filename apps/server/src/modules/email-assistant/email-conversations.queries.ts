import type { AnswerProvider, ChatSource, ChatVisibility } from '@werkwissen/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/database.ts';
import { chatDivisions, chats, emailConversations } from '../../db/schema/index.ts';

/** A mail thread's conversation: its id and the chat holding it. */
export interface ConversationRow {
  id: string;
  chatId: string;
}

const EMAIL: ChatSource = 'email';
/** The answerer of a company that set no default provider. */
const BUILTIN: AnswerProvider = 'builtin';

/** Locks a mailbox's thread for the rest of the transaction: two mails of a new thread make one conversation. */
export async function lockThread(tx: Tx, settingId: string, root: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${settingId} ${root}`}, 0))`);
}

/** The conversation of a mailbox's thread (its first Message-ID), if it has one. */
export async function conversationByRoot(
  tx: Tx,
  settingId: string,
  root: string,
): Promise<ConversationRow | null> {
  const [row] = await tx
    .select({ id: emailConversations.id, chatId: emailConversations.chatId })
    .from(emailConversations)
    .where(and(eq(emailConversations.settingId, settingId), eq(emailConversations.rootMessageId, root)));
  return row ?? null;
}

/**
 * A thread's new conversation and its chat: the owner's, named `name`, over the division, of source "email", with
 * the company's default provider.
 */
export async function insertConversation(
  tx: Tx,
  conversation: {
    settingId: string;
    companyId: string;
    ownerId: string;
    divisionId: string;
    name: string;
    visibility: ChatVisibility;
    root: string;
    sender: string;
    subject: string;
  },
): Promise<ConversationRow> {
  const { companyId } = conversation;
  const [chat] = await tx
    .insert(chats)
    .values({
      companyId,
      ownerId: conversation.ownerId,
      name: conversation.name,
      visibility: conversation.visibility,
      provider: sql`coalesce((select provider from ai_providers where company_id = ${companyId} and is_default
          limit 1), ${BUILTIN})`,
      source: EMAIL,
    })
    .returning({ id: chats.id });
  const chatId = chat!.id;
  await tx.insert(chatDivisions).values({ chatId, divisionId: conversation.divisionId });
  const [made] = await tx
    .insert(emailConversations)
    .values({
      settingId: conversation.settingId,
      companyId,
      chatId,
      rootMessageId: conversation.root,
      sender: conversation.sender,
      subject: conversation.subject,
    })
    .returning({ id: emailConversations.id, chatId: emailConversations.chatId });
  return made!;
}
