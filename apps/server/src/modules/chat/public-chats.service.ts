import type { PublicChat, PublicVisitor } from '@werkwissen/shared';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { AppError, notFound } from '../../core/app-error.ts';
import { randomToken, sha256 } from '../../core/token-crypto.ts';
import { companies, companyLogos } from '../../db/schema/index.ts';
import { takeSlotsOrRefuse } from '../limits/limit-error.ts';
import { companyLogoPath } from '../mail/mail-logo.ts';
import { botProvider } from '../settings/settings-cache.ts';
import {
  findVisitorByToken,
  insertVisitor,
  touchVisitor,
  updateVisitorContact,
} from './chat-visitors.queries.ts';
import { type ChatRecord, companySuspended, findChatRecord, scopeHasReadyFile } from './chats.queries.ts';
import { ownerScope } from './chats.service.ts';

export const VISITOR_COOKIE = 'ww_visitor';
export const VISITOR_COOKIE_PATH = '/api/v1/public/chats';

/** A public chat opened by its share link. */
export type SharedChat = ChatRecord;

export interface Visitor extends PublicVisitor {
  id: string;
  threadId: string;
}

/**
 * The public chat a share link opens; a revoked link, or a chat made private, answers 404; a chat of a suspended
 * company answers PUBLIC_CHAT_SUSPENDED until the company is resumed.
 */
export async function sharedChat(ctx: AppContext, token: string): Promise<SharedChat> {
  const chat = await findChatRecord(ctx.db, { shareToken: token, visibility: 'public' });
  if (!chat) throw notFound();
  if (await companySuspended(ctx.db, chat.companyId)) throw new AppError('PUBLIC_CHAT_SUSPENDED');
  return chat;
}

/** This browser's visitor of the chat (by its cookie), or null. */
export async function findVisitor(
  ctx: AppContext,
  chat: SharedChat,
  cookie: string | undefined,
): Promise<Visitor | null> {
  if (!cookie) return null;
  const visitor = await findVisitorByToken(ctx.db, chat.id, sha256(cookie));
  if (!visitor) return null;
  await touchVisitor(ctx.db, visitor.id);
  return visitor;
}

/** A new visitor with their own thread; the returned token goes into the visitor's cookie. */
export async function createVisitor(
  ctx: AppContext,
  chat: SharedChat,
  contact: { name?: string | null; phone?: string | null; email?: string | null },
  ip: string,
): Promise<{ visitor: Visitor; token: string }> {
  const token = randomToken(32);
  const visitor = await insertVisitor(ctx.db, chat, {
    tokenHash: sha256(token),
    ip,
    name: contact.name || null,
    phone: contact.phone ?? null,
    email: contact.email ?? null,
  });
  return { visitor, token };
}

/** Updates the name and contact a visitor left (only the fields sent). */
export async function updateVisitor(
  ctx: AppContext,
  visitor: Visitor,
  contact: { name?: string | null; phone?: string | null; email?: string | null },
): Promise<PublicVisitor> {
  const next = {
    name: contact.name === undefined ? visitor.name : contact.name || null,
    phone: contact.phone === undefined ? visitor.phone : contact.phone,
    email: contact.email === undefined ? visitor.email : contact.email,
  };
  await updateVisitorContact(ctx.db, visitor.id, next);
  return next;
}

export async function publicChatView(
  ctx: AppContext,
  chat: SharedChat,
  visitor: Visitor | null,
): Promise<PublicChat> {
  const [branding] = await ctx.db
    .select({ logoSha256: companyLogos.sha256, brandColor: companies.brandColor })
    .from(companies)
    .leftJoin(companyLogos, eq(companyLogos.companyId, companies.id))
    .where(eq(companies.id, chat.companyId));
  return {
    name: chat.name,
    companyName: chat.companyName,
    companyLogoUrl: branding?.logoSha256 ? companyLogoPath(chat.companyId, branding.logoSha256) : null,
    companyColor: branding?.brandColor ?? null,
    canAsk: await scopeHasReadyFile(ctx.db, await ownerScope(ctx, chat)),
    botCheck: botProvider(ctx.config, await ctx.settings.current()),
    botCheckSiteKey: ctx.config.BOT_PROTECTION_SITE_KEY ?? null,
    visitor: visitor ? { name: visitor.name, phone: visitor.phone, email: visitor.email } : null,
  };
}

/**
 * Each public question takes a slot of four limits at once, atomically in the database (so several API processes
 * share them): the asking address and the visitor (PUBLIC_CHAT_QUESTIONS_PER_HOUR each, so neither a new address
 * nor a new visitor starts afresh), the share link and the company (ceilings on what anonymous visitors can spend of
 * the company's model key). Over a limit: 429 with Retry-After; RATE_LIMITED for the asker's own limits,
 * PUBLIC_CHAT_BUSY for the link's and the company's.
 */
export async function takePublicQuestionSlot(
  ctx: AppContext,
  chat: Pick<SharedChat, 'id' | 'companyId'>,
  visitor: Pick<Visitor, 'id'>,
  ip: string,
): Promise<void> {
  const windowSeconds = 3600;
  const perAsker = ctx.config.PUBLIC_CHAT_QUESTIONS_PER_HOUR;
  await takeSlotsOrRefuse(
    ctx,
    [
      { bucket: 'public-question:address', key: ip, max: perAsker, windowSeconds },
      { bucket: 'public-question:visitor', key: visitor.id, max: perAsker, windowSeconds },
      {
        bucket: 'public-question:link',
        key: chat.id,
        max: ctx.config.PUBLIC_CHAT_QUESTIONS_PER_LINK_PER_HOUR,
        windowSeconds,
      },
      {
        bucket: 'public-question:company',
        key: chat.companyId,
        max: ctx.config.PUBLIC_CHAT_QUESTIONS_PER_COMPANY_PER_HOUR,
        windowSeconds,
      },
    ],
    (limit) => (/:(link|company)$/.test(limit.bucket) ? 'PUBLIC_CHAT_BUSY' : 'RATE_LIMITED'),
  );
}
