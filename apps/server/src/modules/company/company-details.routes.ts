import { companyDetailsContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { getCompanyDetails, saveCompanyDetails } from './company-details.service.ts';

export function companyDetailsRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, companyDetailsContracts.get, (req) => getCompanyDetails(ctx, requireActor(req)));
  registerRoute(app, companyDetailsContracts.save, (req) =>
    saveCompanyDetails(ctx, requireActor(req), req.body),
  );
}
