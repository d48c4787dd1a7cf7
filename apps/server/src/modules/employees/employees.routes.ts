import { employeeContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { translate } from '../../i18n/translator.ts';
import { importEmployees } from './employee-import.ts';
import {
  createEmployee,
  deleteEmployee,
  getEmployee,
  listEmployees,
  resendInvitation,
  updateEmployee,
} from './employees.service.ts';

export function employeeRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, employeeContracts.list, async (req) => listEmployees(ctx, requireActor(req), req.query));
  registerRoute(app, employeeContracts.get, async (req) =>
    getEmployee(ctx, requireActor(req), req.params.employeeId),
  );
  registerRoute(app, employeeContracts.create, async (req, reply) => {
    const employee = await createEmployee(ctx, requireActor(req), req.body);
    reply.code(201);
    return employee;
  });
  registerRoute(app, employeeContracts.update, async (req) =>
    updateEmployee(ctx, requireActor(req), req.params.employeeId, req.body),
  );
  registerRoute(app, employeeContracts.remove, async (req, reply) => {
    await deleteEmployee(ctx, requireActor(req), req.params.employeeId);
    reply.code(204);
    return undefined;
  });
  registerRoute(app, employeeContracts.import, async (req) =>
    importEmployees(ctx, requireActor(req), req.body.csv, requestLanguage(req, ctx)),
  );
  registerRoute(app, employeeContracts.resendInvitation, async (req) => {
    await resendInvitation(ctx, requireActor(req), req.params.employeeId);
    return { message: translate(requestLanguage(req, ctx), 'messages.invitationSent') };
  });
}
