import { customerContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import {
  createCustomer,
  deleteCustomer,
  getCustomer,
  listCustomers,
  updateCustomer,
} from './customers.service.ts';

export function customerRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, customerContracts.list, (req) => listCustomers(ctx, requireActor(req), req.query));
  registerRoute(app, customerContracts.get, (req) =>
    getCustomer(ctx, requireActor(req), req.params.customerId),
  );
  registerRoute(app, customerContracts.create, async (req, reply) => {
    const customer = await createCustomer(ctx, requireActor(req), req.body);
    reply.code(201);
    return customer;
  });
  registerRoute(app, customerContracts.update, (req) =>
    updateCustomer(ctx, requireActor(req), req.params.customerId, req.body),
  );
  registerRoute(app, customerContracts.remove, async (req, reply) => {
    await deleteCustomer(ctx, requireActor(req), req.params.customerId);
    reply.code(204);
    return undefined;
  });
}
