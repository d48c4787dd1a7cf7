import { dashboardContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { adminDashboard, companyDashboard } from './dashboard.service.ts';

export function dashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, dashboardContracts.company, async (req) => companyDashboard(ctx, requireActor(req)));
  registerRoute(app, dashboardContracts.admin, async () => adminDashboard(ctx));
}
