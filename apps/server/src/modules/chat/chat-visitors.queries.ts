import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { chatThreads, chatVisitors } from '../../db/schema/index.ts';
import type { ChatRecord } from './chats.queries.ts';

/** A visitor of a public chat with their thread, and the contact they left. */
export interface StoredVisitor {
  id: string;
  threadId: string;
  name: string | null;
  phone: string | null;
  email: string | null;
}

export interface VisitorContact {
  name: string | null;
  phone: string | null;
  email: string | null;
}

/** The visitor of a chat whose cookie hashes to `tokenHash`, or null. */
export async function findVisitorByToken(
  db: DbOrTx,
  chatId: string,
  tokenHash: string,
): Promise<StoredVisitor | null> {
  const [row] = await db
    .select({
      id: chatVisitors.id,
      threadId: chatThreads.id,
      name: chatVisitors.name,
      phone: chatVisitors.phone,
      email: chatVisitors.email,
    })
    .from(chatVisitors)
    .innerJoin(chatThreads, eq(chatThreads.visitorId, chatVisitors.id))
    .where(and(eq(chatVisitors.tokenHash, tokenHash), eq(chatVisitors.chatId, chatId)));
  return row ?? null;
}

/** Notes that a visitor came back (at most once a minute, to spare writes). */
export async function touchVisitor(db: DbOrTx, visitorId: string): Promise<void> {
  await db
    .update(chatVisitors)
    .set({ lastSeenAt: sql`now()` })
    .where(
      and(eq(chatVisitors.id, visitorId), lt(chatVisitors.lastSeenAt, sql`now() - interval '1 minute'`)),
    );
}

/** A new visitor of a chat with their own thread. */
export async function insertVisitor(
  db: DbOrTx,
  chat: Pick<ChatRecord, 'id' | 'companyId'>,
  visitor: VisitorContact & { tokenHash: string; ip: string },
): Promise<StoredVisitor> {
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(chatVisitors)
      .values({ companyId: chat.companyId, chatId: chat.id, ...visitor })
      .returning({ id: chatVisitors.id });
    const id = created!.id;
    const [thread] = await tx
      .insert(chatThreads)
      .values({ companyId: chat.companyId, chatId: chat.id, visitorId: id })
      .returning({ id: chatThreads.id });
    return { id, threadId: thread!.id, name: visitor.name, phone: visitor.phone, email: visitor.email };
  });
}

export async function updateVisitorContact(
  db: DbOrTx,
  visitorId: string,
  contact: VisitorContact,
): Promise<void> {
  await db.update(chatVisitors).set(contact).where(eq(chatVisitors.id, visitorId));
}
