import { adminBillingContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { noteChange } from '../../http/activity-hook.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import {
  assignPlan,
  listPayments,
  paymentDetail,
  planCatalogue,
  updatePlan,
} from './admin-billing.service.ts';

export function adminBillingRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, adminBillingContracts.payments, async (req) =>
    listPayments(ctx, requireActor(req), req.query),
  );
  registerRoute(app, adminBillingContracts.payment, async (req) =>
    paymentDetail(ctx, requireActor(req), req.params.companyId),
  );
  registerRoute(app, adminBillingContracts.assignPlan, async (req) => {
    const { detail, change } = await assignPlan(ctx, requireActor(req), req.params.companyId, req.body);
    noteChange(req, change);
    return detail;
  });
  registerRoute(app, adminBillingContracts.plans, async (req) => planCatalogue(ctx, requireActor(req)));
  registerRoute(app, adminBillingContracts.updatePlan, async (req) => {
    const { plan, change } = await updatePlan(ctx, requireActor(req), req.params.plan, req.body);
    noteChange(req, change);
    return plan;
  });
}
