import { chatWidgetContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { storedPhone } from '../../core/person-phone.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { verifyBotCheck } from '../bot-check/bot-check.ts';
import { sentVisitorToken } from '../chat/public-chats.routes.ts';
import { createVisitor, findVisitor, publicChatView, updateVisitor } from '../chat/public-chats.service.ts';
import { getWidget, updateWidget, widgetChat } from './chat-widget.service.ts';

/**
 * A public chat as a website widget: its settings (the publish permission), and the two calls its frame makes of
 * its own (the chat, joining); asking, the thread and feedback are the public chat's, with the visitor token in the
 * `x-visitor-token` header.
 */
export function chatWidgetRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, chatWidgetContracts.get, async (req) =>
    getWidget(ctx, requireActor(req), req.params.chatId),
  );
  registerRoute(app, chatWidgetContracts.update, async (req) =>
    updateWidget(ctx, requireActor(req), req.params.chatId, req.body),
  );

  registerRoute(app, chatWidgetContracts.view, async (req) => {
    const chat = await widgetChat(ctx, req.params.token);
    return publicChatView(ctx, chat, await findVisitor(ctx, chat, sentVisitorToken(req)));
  });

  // As joining by the share link, with the token in the answer instead of a cookie.
  registerRoute(app, chatWidgetContracts.join, async (req) => {
    const chat = await widgetChat(ctx, req.params.token);
    const { botCheck, ...given } = req.body;
    const contact = { ...given, phone: storedPhone(given.phone, requestLanguage(req, ctx)) };
    const sent = sentVisitorToken(req);
    const existing = await findVisitor(ctx, chat, sent);
    if (existing && sent) return { ...(await updateVisitor(ctx, existing, contact)), visitorToken: sent };
    if (!(await verifyBotCheck(ctx, botCheck, req.ip))) throw new AppError('BOT_CHECK_FAILED');
    const { visitor, token } = await createVisitor(ctx, chat, contact, req.ip);
    return { name: visitor.name, phone: visitor.phone, email: visitor.email, visitorToken: token };
  });
}
