import { chatContracts } from '@werkwissen/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import type { AskRequest } from './answer-stream.ts';
import { readAudioUpload } from './audio-upload.ts';
import {
  chatOptions,
  chatScope,
  createChat,
  deleteChat,
  getChat,
  listChats,
  loadChat,
  loadChatWithThread,
  revokeShare,
  shareChat,
  updateChat,
} from './chats.service.ts';
import { threadMessages } from './messages.service.ts';
import { streamAnswer } from './sse.ts';
import { transcribeAudio } from './transcription.ts';

export function chatRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, chatContracts.options, async (req) =>
    chatOptions(ctx, requireActor(req), requestLanguage(req, ctx)),
  );
  registerRoute(app, chatContracts.list, async (req) => listChats(ctx, requireActor(req), req.query));
  registerRoute(app, chatContracts.create, async (req, reply) => {
    const chat = await createChat(ctx, requireActor(req), req.body);
    return reply.code(201).send(chat);
  });
  registerRoute(app, chatContracts.get, async (req) => getChat(ctx, requireActor(req), req.params.chatId));
  registerRoute(app, chatContracts.update, async (req) =>
    updateChat(ctx, requireActor(req), req.params.chatId, req.body),
  );
  registerRoute(app, chatContracts.remove, async (req, reply) => {
    await deleteChat(ctx, requireActor(req), req.params.chatId);
    return reply.code(204).send();
  });
  registerRoute(app, chatContracts.share, async (req) =>
    shareChat(ctx, requireActor(req), req.params.chatId),
  );
  registerRoute(app, chatContracts.unshare, async (req) =>
    revokeShare(ctx, requireActor(req), req.params.chatId),
  );
  registerRoute(app, chatContracts.messages, async (req) => {
    const { chat, threadId } = await loadChatWithThread(ctx, requireActor(req), req.params.chatId);
    return { items: await threadMessages(ctx.db, chat.companyId, threadId, requestLanguage(req, ctx)) };
  });
  /** Streams the answer to a new question, or a new answer to an earlier one, in the caller's own thread. */
  const answer = async (
    req: FastifyRequest<{ Params: { chatId: string } }>,
    reply: FastifyReply,
    ask: AskRequest['ask'],
  ) => {
    const actor = requireActor(req);
    const { chat, threadId } = await loadChatWithThread(ctx, actor, req.params.chatId);
    await streamAnswer(ctx, reply, {
      chat,
      threadId,
      scope: chatScope(chat, actor),
      language: requestLanguage(req, ctx),
      ask,
    });
    return undefined;
  };
  registerRoute(app, chatContracts.ask, (req, reply) => answer(req, reply, { question: req.body.content }));
  registerRoute(app, chatContracts.regenerate, (req, reply) =>
    answer(req, reply, { regenerate: req.params.messageId }),
  );
  registerRoute(app, chatContracts.transcribe, async (req) => {
    const actor = requireActor(req);
    const chat = await loadChat(ctx, actor, req.params.chatId);
    return { text: await transcribeAudio(ctx, chat.companyId, await readAudioUpload(req)) };
  });
}
