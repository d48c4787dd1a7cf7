import type { ChatWidget } from '@werkwissen/shared';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { chats } from '../../db/schema/index.ts';

/** A chat's widget settings (null: no such chat). */
export async function findWidget(db: DbOrTx, chatId: string): Promise<ChatWidget | null> {
  const [row] = await db
    .select({ enabled: chats.widgetEnabled, origins: chats.widgetOrigins })
    .from(chats)
    .where(eq(chats.id, chatId));
  return row ?? null;
}

/**
 * Saves a chat's widget settings, only while the chat is still public and shared (a parallel "make private" or
 * "revoke link" wins): whether the row was changed.
 */
export async function saveWidget(db: DbOrTx, chatId: string, widget: ChatWidget): Promise<boolean> {
  const changed = await db
    .update(chats)
    .set({ widgetEnabled: widget.enabled, widgetOrigins: widget.origins, updatedAt: sql`now()` })
    .where(
      widget.enabled
        ? sql`${chats.id} = ${chatId} and ${chats.visibility} = 'public' and ${chats.shareToken} is not null`
        : eq(chats.id, chatId),
    )
    .returning({ id: chats.id });
  return changed.length > 0;
}
