import { feedbackContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { saveFeedback } from './feedback.service.ts';

/** Feedback on an answer of the caller's own conversation (the reports on it are in modules/reports). */
export function feedbackRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, feedbackContracts.give, async (req) =>
    saveFeedback(
      ctx,
      { actor: requireActor(req) },
      req.params.messageId,
      req.body,
      requestLanguage(req, ctx),
    ),
  );
}
