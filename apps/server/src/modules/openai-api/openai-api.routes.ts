import { openAiContracts } from '@werkwissen/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { describeError } from '../../http/error-handler.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { answerCompletion, listModels } from './openai-api.service.ts';
import { completionOf, identityOf, isErrorCode, openAiErrorOf } from './openai-format.ts';
import { streamCompletion } from './openai-stream.ts';

/**
 * The OpenAI-compatible door at /api/v1/openai/v1 (docs/connect/openai.md): the same guard, permissions and
 * services as every route, its errors in OpenAI's body (`{ error: { message, type, code, param } }`).
 */
export function openAiRoutes(app: FastifyInstance, ctx: AppContext): void {
  void app.register(async (door) => {
    door.setErrorHandler((error: FastifyError, request, reply) => {
      const { status, body } = openAiErrorOf(describeError(error, request, reply, ctx));
      return reply.code(status).send(body);
    });
    registerRoute(door, openAiContracts.models, async (req) => ({
      object: 'list' as const,
      data: await listModels(ctx, requireActor(req), requestLanguage(req, ctx)),
    }));
    registerRoute(door, openAiContracts.completions, async (req, reply) => {
      const actor = requireActor(req);
      const language = requestLanguage(req, ctx);
      if (req.body.stream) {
        await streamCompletion(ctx, reply, actor, req.body, language);
        return undefined;
      }
      const answered = await answerCompletion(ctx, actor, req.body, language, { emit: () => {} });
      const code = answered.answer.errorCode;
      if (code) throw new AppError(isErrorCode(code) ? code : 'INTERNAL');
      return completionOf(identityOf(answered.answer.id, req.body.model), answered);
    });
  });
}
