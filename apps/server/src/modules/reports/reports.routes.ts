import { feedbackContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { feedbackCsv } from './feedback-csv.ts';
import { allFeedbackReport, getFeedbackReport, listFeedbackReport } from './feedback-report.service.ts';
import { feedbackSeries } from './feedback-series.ts';
import { knowledgeGaps } from './knowledge-gaps.ts';
import { reportScope, utcDay } from './report-scope.ts';

/** The feedback reports: a data manager's own company, every company (or one) for an administrator. */
export function reportRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, feedbackContracts.list, async (req) =>
    listFeedbackReport(ctx, reportScope(requireActor(req), req.query.companyId), req.query),
  );
  registerRoute(app, feedbackContracts.get, async (req) =>
    getFeedbackReport(ctx, reportScope(requireActor(req)), req.params.feedbackId),
  );
  registerRoute(app, feedbackContracts.export, async (req, reply) => {
    const items = await allFeedbackReport(
      ctx,
      reportScope(requireActor(req), req.query.companyId),
      req.query,
    );
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="feedback-${utcDay(Date.now())}.csv"`)
      .header('cache-control', 'private, no-store');
    return feedbackCsv(items);
  });
  registerRoute(app, feedbackContracts.series, async (req) =>
    feedbackSeries(
      ctx,
      reportScope(requireActor(req), req.query.companyId),
      req.query,
      requestLanguage(req, ctx),
    ),
  );
  registerRoute(app, feedbackContracts.gaps, async (req) => ({
    items: await knowledgeGaps(ctx, reportScope(requireActor(req), req.query.companyId), req.query),
  }));
}
