import { publicChatContracts, VISITOR_TOKEN_HEADER } from '@werkwissen/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { storedPhone } from '../../core/person-phone.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute } from '../../http/route.ts';
import { altchaChallenge, verifyBotCheck } from '../bot-check/bot-check.ts';
import { saveFeedback } from '../feedback/feedback.service.ts';
import { ownerScope } from './chats.service.ts';
import { threadMessages } from './messages.service.ts';
import {
  createVisitor,
  findVisitor,
  publicChatView,
  type SharedChat,
  sharedChat,
  takePublicQuestionSlot,
  updateVisitor,
  VISITOR_COOKIE,
  VISITOR_COOKIE_PATH,
  type Visitor,
} from './public-chats.service.ts';
import { streamAnswer } from './sse.ts';

/**
 * The visitor token a request carries: the share link page's httpOnly cookie, else the header a website widget's
 * frame sends (a frame on another site gets no SameSite cookie; its token is kept in the frame's own storage).
 */
export function sentVisitorToken(req: FastifyRequest): string | undefined {
  const header = req.headers[VISITOR_TOKEN_HEADER];
  return req.cookies[VISITOR_COOKIE] ?? (typeof header === 'string' && header ? header : undefined);
}

/** Public chats: anyone with a share link; each browser is a visitor (an httpOnly cookie) with its own thread. */
export function publicChatRoutes(app: FastifyInstance, ctx: AppContext): void {
  const secure = ctx.config.PUBLIC_URL.startsWith('https:');
  const visitorOf = (req: FastifyRequest, chat: SharedChat) => findVisitor(ctx, chat, sentVisitorToken(req));
  const requireVisitor = async (req: FastifyRequest, chat: SharedChat): Promise<Visitor> => {
    const visitor = await visitorOf(req, chat);
    if (!visitor) throw new AppError('VISITOR_REQUIRED');
    return visitor;
  };

  registerRoute(app, publicChatContracts.altcha, async () => altchaChallenge(ctx));

  registerRoute(app, publicChatContracts.get, async (req) => {
    const chat = await sharedChat(ctx, req.params.token);
    return publicChatView(ctx, chat, await visitorOf(req, chat));
  });

  registerRoute(app, publicChatContracts.join, async (req, reply) => {
    const chat = await sharedChat(ctx, req.params.token);
    const { botCheck, ...given } = req.body;
    const contact = { ...given, phone: storedPhone(given.phone, requestLanguage(req, ctx)) };
    const existing = await visitorOf(req, chat);
    if (existing) return updateVisitor(ctx, existing, contact);
    if (!(await verifyBotCheck(ctx, botCheck, req.ip))) throw new AppError('BOT_CHECK_FAILED');
    const { visitor, token } = await createVisitor(ctx, chat, contact, req.ip);
    reply.setCookie(VISITOR_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      // One cookie per link, so a browser can be the visitor of several public chats.
      path: `${VISITOR_COOKIE_PATH}/${req.params.token}`,
      maxAge: 180 * 24 * 3600,
    });
    return { name: visitor.name, phone: visitor.phone, email: visitor.email };
  });

  registerRoute(app, publicChatContracts.messages, async (req) => {
    const chat = await sharedChat(ctx, req.params.token);
    const visitor = await requireVisitor(req, chat);
    return {
      items: await threadMessages(ctx.db, chat.companyId, visitor.threadId, requestLanguage(req, ctx)),
    };
  });

  registerRoute(app, publicChatContracts.ask, async (req, reply) => {
    const chat = await sharedChat(ctx, req.params.token);
    const visitor = await requireVisitor(req, chat);
    await takePublicQuestionSlot(ctx, chat, visitor, req.ip);
    await streamAnswer(ctx, reply, {
      chat,
      threadId: visitor.threadId,
      // Only what the chat's owner may still use: a share link never outlives its owner's access.
      scope: await ownerScope(ctx, chat),
      language: requestLanguage(req, ctx),
      ask: { question: req.body.content },
      visitor: true,
    });
    return undefined;
  });

  registerRoute(app, publicChatContracts.feedback, async (req) => {
    const chat = await sharedChat(ctx, req.params.token);
    const visitor = await requireVisitor(req, chat);
    return saveFeedback(
      ctx,
      { visitorId: visitor.id },
      req.params.messageId,
      req.body,
      requestLanguage(req, ctx),
    );
  });
}
