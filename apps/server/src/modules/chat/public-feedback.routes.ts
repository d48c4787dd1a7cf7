import { publicFeedbackContracts as c } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute } from '../../http/route.ts';
import { translate } from '../../i18n/translator.ts';
import { submitPublicFeedback } from './public-feedback.service.ts';

/** The public feedback page's one call. */
export function publicFeedbackRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, c.submit, async (req, reply) => {
    const language = requestLanguage(req, ctx);
    await submitPublicFeedback(ctx, req.body, { ip: req.ip, language });
    reply.code(201);
    return { message: translate(language, 'publicFeedback.thanks') };
  });
}
