import { roleContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { noteChange } from '../../http/activity-hook.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import {
  createRole,
  deleteRole,
  getRole,
  listRoleHolders,
  listRoles,
  resetRole,
  updateRole,
} from './roles.service.ts';

/** The roles editor: every change is in the activity log with the role before and after. */
export function roleRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, roleContracts.list, async (req) => listRoles(ctx, requireActor(req), req.query));
  registerRoute(app, roleContracts.get, async (req) => getRole(ctx, requireActor(req), req.params.roleId));
  registerRoute(app, roleContracts.holders, async (req) =>
    listRoleHolders(ctx, requireActor(req), req.params.roleId, req.query),
  );
  registerRoute(app, roleContracts.create, async (req, reply) => {
    const { role, change } = await createRole(ctx, requireActor(req), req.body);
    noteChange(req, change);
    reply.code(201);
    return role;
  });
  registerRoute(app, roleContracts.update, async (req) => {
    const { role, change } = await updateRole(ctx, requireActor(req), req.params.roleId, req.body);
    noteChange(req, change);
    return role;
  });
  registerRoute(app, roleContracts.reset, async (req) => {
    const { role, change } = await resetRole(ctx, requireActor(req), req.params.roleId);
    noteChange(req, change);
    return role;
  });
  registerRoute(app, roleContracts.remove, async (req, reply) => {
    const { change } = await deleteRole(ctx, requireActor(req), req.params.roleId);
    noteChange(req, change);
    reply.code(204);
    return undefined;
  });
}
