import type { ChatWidget } from '@werkwissen/shared';
import { chatAccess } from '../../access/chat.access.ts';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { findChatRecord } from '../chat/chats.queries.ts';
import { type SharedChat, sharedChat } from '../chat/public-chats.service.ts';
import { findWidget, saveWidget } from './chat-widget.queries.ts';

/** A chat whose widget the actor may configure: the publish permission on it (404 unseen, 403 seen but not theirs). */
async function publishable(ctx: AppContext, actor: Actor, chatId: string) {
  await chatAccess.authorize(ctx.db, actor, 'publish', chatId);
  const chat = await findChatRecord(ctx.db, { id: chatId });
  if (!chat) throw notFound();
  return chat;
}

export async function getWidget(ctx: AppContext, actor: Actor, chatId: string): Promise<ChatWidget> {
  await publishable(ctx, actor, chatId);
  const widget = await findWidget(ctx.db, chatId);
  if (!widget) throw notFound();
  return widget;
}

/**
 * Turns a public chat with a share link into a website widget (the snippet names the link), or off; the origins are
 * the websites allowed to frame it. Switching it off keeps the origins for later.
 */
export async function updateWidget(
  ctx: AppContext,
  actor: Actor,
  chatId: string,
  body: ChatWidget,
): Promise<ChatWidget> {
  const chat = await publishable(ctx, actor, chatId);
  if (body.enabled && chat.visibility !== 'public') throw new AppError('CHAT_NOT_PUBLIC');
  if (body.enabled && !chat.shareToken) throw new AppError('CHAT_NOT_SHARED');
  if (!(await saveWidget(ctx.db, chatId, body)))
    throw new AppError(body.enabled ? 'CHAT_NOT_SHARED' : 'NOT_FOUND');
  return getWidget(ctx, actor, chatId);
}

/**
 * The public chat a widget shows: its share link's chat, only while its widget is on (else 404, like a revoked
 * link); a suspended company's answers PUBLIC_CHAT_SUSPENDED as its links do.
 */
export async function widgetChat(
  ctx: AppContext,
  token: string,
): Promise<SharedChat & { origins: string[] }> {
  const chat = await sharedChat(ctx, token);
  const widget = await findWidget(ctx.db, chat.id);
  if (!widget?.enabled) throw notFound();
  return { ...chat, origins: widget.origins };
}

/**
 * The website origins that may frame the widget page of a share token: the widget's origins while it is on and its
 * chat is public, shared and of an active company; none otherwise (so nothing may frame it).
 */
export async function widgetFrameAncestors(ctx: AppContext, token: string): Promise<string[]> {
  try {
    return (await widgetChat(ctx, token)).origins;
  } catch (error) {
    if (error instanceof AppError) return [];
    throw error;
  }
}
