import { adminBillingContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { noteChange } from '../activity/activity.service.ts';
import { assignPlan, listPayments, paymentDetail, updatePlan } from './admin-billing.service.ts';
import { listPlans } from './plan-catalogue.ts';

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
  registerRoute(app, adminBillingContracts.plans, async () => ({ items: await listPlans(ctx) }));
  registerRoute(app, adminBillingContracts.updatePlan, async (req) => {
    const { plan, change } = await updatePlan(ctx, req.params.plan, req.body);
    noteChange(req, change);
    return plan;
  });
}
