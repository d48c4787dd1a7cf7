import { adminContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute } from '../../http/route.ts';
import { listActivity } from '../activity/activity.service.ts';
import { getEmail, listEmails } from './emails.service.ts';

export function adminRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, adminContracts.listEmails, async (req) => listEmails(ctx, req.query));
  registerRoute(app, adminContracts.getEmail, async (req) => getEmail(ctx, req.params.emailId));
  registerRoute(app, adminContracts.listActivity, async (req) =>
    listActivity(ctx, req.query.page, req.query.pageSize, req.query.q),
  );
}
