import { dashboardContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { adminDashboard, companyDashboard } from './dashboard.service.ts';
import { platformFigures } from './platform-figures.service.ts';

export function dashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, dashboardContracts.company, async (req) => companyDashboard(ctx, requireActor(req)));
  registerRoute(app, dashboardContracts.admin, async (req) =>
    adminDashboard(ctx, requireActor(req), req.query),
  );
  // The analysis area reads the same figures under its own permission (`read analysis`), without the back office's
  // counters of users and e-mails.
  registerRoute(app, dashboardContracts.analysis, async (req) =>
    platformFigures(ctx, requireActor(req), req.query),
  );
}
