import { adminContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { noteChange } from '../../http/activity-hook.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { exportActivity, listActivity } from '../activity/activity-log.service.ts';
import { utcDay } from '../reports/report-scope.ts';
import { revealEmailLink } from './email-link-reveal.ts';
import { listEmailSenders } from './email-senders.service.ts';
import { getEmail, listEmails, resendEmail } from './emails.service.ts';

export function adminRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, adminContracts.listEmails, async (req) => listEmails(ctx, requireActor(req), req.query));
  registerRoute(app, adminContracts.getEmail, async (req) => {
    const { email, change } = await getEmail(ctx, requireActor(req), req.params.emailId);
    noteChange(req, change);
    return email;
  });
  registerRoute(app, adminContracts.revealEmailLink, async (req) => {
    const { link, change } = await revealEmailLink(ctx, requireActor(req), req.params.emailId, req.body.code);
    noteChange(req, change);
    return { link };
  });
  registerRoute(app, adminContracts.listEmailSenders, async (req) =>
    listEmailSenders(ctx, requireActor(req), req.query),
  );
  registerRoute(app, adminContracts.resendEmail, async (req, reply) => {
    const { change, ...sent } = await resendEmail(ctx, requireActor(req), req.params.emailId);
    noteChange(req, change);
    reply.status(202);
    return sent;
  });
  registerRoute(app, adminContracts.listActivity, async (req) =>
    listActivity(ctx, requireActor(req), req.query),
  );
  registerRoute(app, adminContracts.exportActivity, async (req, reply) => {
    const csv = exportActivity(ctx, requireActor(req), req.query);
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="activity-log-${utcDay(Date.now())}.csv"`)
      .header('cache-control', 'private, no-store');
    return reply.send(csv);
  });
}
