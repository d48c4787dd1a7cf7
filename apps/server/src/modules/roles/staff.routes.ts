import { staffContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { noteChange } from '../../http/activity-hook.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { translate } from '../../i18n/translator.ts';
import {
  deactivateStaffMember,
  deleteStaffMember,
  getStaffMember,
  inviteStaffMember,
  listStaff,
  reactivateStaffMember,
  resendStaffInvitation,
  updateStaffMember,
} from './staff.service.ts';

/** The operator's users: every change is in the activity log with the member before and after. */
export function staffRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, staffContracts.list, async (req) => listStaff(ctx, requireActor(req), req.query));
  registerRoute(app, staffContracts.get, async (req) =>
    getStaffMember(ctx, requireActor(req), req.params.staffId),
  );
  registerRoute(app, staffContracts.invite, async (req, reply) => {
    const { member, change } = await inviteStaffMember(ctx, requireActor(req), req.body);
    noteChange(req, change);
    reply.code(201);
    return member;
  });
  registerRoute(app, staffContracts.update, async (req) => {
    const { member, change } = await updateStaffMember(ctx, requireActor(req), req.params.staffId, req.body);
    noteChange(req, change);
    return member;
  });
  registerRoute(app, staffContracts.deactivate, async (req) => {
    const { member, change } = await deactivateStaffMember(ctx, requireActor(req), req.params.staffId);
    noteChange(req, change);
    return member;
  });
  registerRoute(app, staffContracts.reactivate, async (req) => {
    const { member, change } = await reactivateStaffMember(ctx, requireActor(req), req.params.staffId);
    noteChange(req, change);
    return member;
  });
  registerRoute(app, staffContracts.resendInvitation, async (req) => {
    await resendStaffInvitation(ctx, requireActor(req), req.params.staffId);
    return { message: translate(requestLanguage(req, ctx), 'messages.invitationSent') };
  });
  registerRoute(app, staffContracts.remove, async (req, reply) => {
    const { change } = await deleteStaffMember(ctx, requireActor(req), req.params.staffId);
    noteChange(req, change);
    reply.code(204);
    return undefined;
  });
}
