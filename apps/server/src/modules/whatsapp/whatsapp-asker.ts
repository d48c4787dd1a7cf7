import type { Language } from '@werkwissen/shared';
import type { AppContext } from '../../app-context.ts';
import { type Actor, loadUserActor } from '../../core/actor.ts';
import { sha256 } from '../../core/token-crypto.ts';
import { areaPaths } from '../auth/areas.ts';
import type { AskRequest } from '../chat/answer-stream.ts';
import { findChatRecord, visitorThread } from '../chat/chats.queries.ts';
import { chatScope, loadChatWithThread, ownerScope, whatsappChat } from '../chat/chats.service.ts';
import { upsertNumberVisitor, usersOfNumber } from './whatsapp.queries.ts';
import type { OpenConnection } from './whatsapp-connection.service.ts';

/** Who a WhatsApp message is from, and where its question is asked: a user's WhatsApp chat, or a public chat. */
export type Asker =
  | {
      kind: 'user';
      actor: Actor;
      request: Omit<AskRequest, 'ask' | 'language'>;
      link: string;
      language: Language;
    }
  | {
      kind: 'visitor';
      visitorId: string;
      request: Omit<AskRequest, 'ask' | 'language'>;
      link: string;
      language: Language;
    }
  /** A user saved the number but has not confirmed it from WhatsApp: told how to, in their language. */
  | { kind: 'unconfirmed'; language: Language; link: string }
  | { kind: 'unknown'; language: Language };

/**
 * The company's one enabled user who saved this number as their phone (compared by digits: Meta's `wa_id` is the
 * number with its country code, no `+`), and whether they confirmed it from WhatsApp. Two users with the same number
 * are nobody: neither may answer as the other.
 */
async function userOfNumber(ctx: AppContext, companyId: string, waId: string) {
  const rows = await usersOfNumber(ctx.db, companyId, waId);
  if (rows.length !== 1) return null;
  const actor = await loadUserActor(ctx.db, rows[0]!.id, null);
  return actor && { actor, kind: rows[0]!.kind, confirmed: rows[0]!.verified === waId };
}

/** A WhatsApp sender's own visitor of the public chat, with their thread (one per chat and number). */
async function visitorOfNumber(
  ctx: AppContext,
  chat: { id: string; companyId: string },
  waId: string,
  name: string | null,
): Promise<{ visitorId: string; threadId: string }> {
  const visitorId = await upsertNumberVisitor(ctx.db, {
    companyId: chat.companyId,
    chatId: chat.id,
    tokenHash: sha256(`whatsapp:${chat.id}:${waId}`),
    name,
    phone: `+${waId}`,
  });
  return { visitorId, threadId: await visitorThread(ctx.db, chat, visitorId) };
}

/**
 * Who asks: a user of the company who saved the number and confirmed it from WhatsApp asks in their WhatsApp chat, as
 * themselves (their rules, their divisions: the same access modules as the web chat); one who has not confirmed it
 * yet is told how; anyone else, when the company chose so, asks the chosen public chat as a visitor (listed among the
 * public users); otherwise nobody.
 */
export async function askerOf(
  ctx: AppContext,
  connection: OpenConnection,
  waId: string,
  name: string | null,
): Promise<Asker> {
  const { general } = await ctx.settings.current();
  const saved = await userOfNumber(ctx, connection.companyId, waId);
  if (saved && !saved.confirmed) {
    return {
      kind: 'unconfirmed',
      language: saved.actor.language,
      link: `${general.publicUrl}${areaPaths(saved.kind).account}`,
    };
  }
  const actor = saved?.actor;
  if (actor) {
    const { chat, threadId } = await loadChatWithThread(
      ctx,
      actor,
      await whatsappChat(ctx, connection.companyId, actor.userId),
    );
    return {
      kind: 'user',
      actor,
      language: actor.language,
      link: `${general.publicUrl}/chat?chat=${chat.id}`,
      request: { chat, threadId, scope: chatScope(chat, actor) },
    };
  }
  const fallback = general.defaultLanguage;
  if (connection.unknownNumbers !== 'publicChat' || !connection.publicChatId)
    return { kind: 'unknown', language: fallback };
  const chat = await findChatRecord(ctx.db, {
    id: connection.publicChatId,
    companyId: connection.companyId,
    visibility: 'public',
    activeCompany: true,
  });
  if (!chat) return { kind: 'unknown', language: fallback };
  const token = chat.shareToken;
  const { visitorId, threadId } = await visitorOfNumber(ctx, chat, waId, name);
  return {
    kind: 'visitor',
    visitorId,
    language: fallback,
    link: token ? `${general.publicUrl}/p/${token}` : general.publicUrl,
    request: {
      chat,
      threadId,
      scope: await ownerScope(ctx, chat),
      visitor: true,
    },
  };
}
