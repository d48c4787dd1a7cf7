import { adminContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { listActivity } from '../activity/activity.service.ts';
import { getEmail, listEmails } from './emails.service.ts';

export function adminRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, adminContracts.listEmails, async (req) => listEmails(ctx, requireActor(req), req.query));
  registerRoute(app, adminContracts.getEmail, async (req) =>
    getEmail(ctx, requireActor(req), req.params.emailId),
  );
  registerRoute(app, adminContracts.listActivity, async (req) =>
    listActivity(ctx, requireActor(req), req.query),
  );
}
