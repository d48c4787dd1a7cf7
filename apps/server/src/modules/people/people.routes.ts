import { adminPeopleContracts as c } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { noteChange } from '../../http/activity-hook.ts';
import { CSRF_HEADER, REFRESH_COOKIE, setSessionCookies } from '../../http/cookies.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { clientInfo, registerRoute, requireActor } from '../../http/route.ts';
import { listCompanies, setCompanySuspended } from './companies.service.ts';
import { getDataManagerDetail } from './data-manager-detail.ts';
import { importDataManagers } from './data-manager-import.ts';
import {
  createDataManager,
  deleteDataManager,
  listDataManagers,
  setDataManagerActive,
  updateDataManager,
} from './data-managers.service.ts';
import { endImpersonation, startImpersonation } from './impersonation.service.ts';
import { getPublicUser, listPublicUsers } from './public-users.service.ts';

/** The back office's people: data managers, public users, companies, and viewing the product as a user. */
export function peopleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const secure = ctx.config.PUBLIC_URL.startsWith('https:');

  registerRoute(app, c.listDataManagers, async (req) => listDataManagers(ctx, requireActor(req), req.query));
  registerRoute(app, c.getDataManager, async (req) =>
    getDataManagerDetail(ctx, requireActor(req), req.params.dataManagerId),
  );
  registerRoute(app, c.createDataManager, async (req, reply) => {
    const created = await createDataManager(ctx, requireActor(req), req.body);
    reply.code(201);
    return created;
  });
  registerRoute(app, c.updateDataManager, async (req) =>
    updateDataManager(ctx, requireActor(req), req.params.dataManagerId, req.body),
  );
  registerRoute(app, c.deactivateDataManager, async (req) =>
    setDataManagerActive(ctx, requireActor(req), req.params.dataManagerId, false),
  );
  registerRoute(app, c.reactivateDataManager, async (req) =>
    setDataManagerActive(ctx, requireActor(req), req.params.dataManagerId, true),
  );
  registerRoute(app, c.deleteDataManager, async (req, reply) => {
    await deleteDataManager(ctx, requireActor(req), req.params.dataManagerId, req.query.confirmation);
    reply.code(204);
    return undefined;
  });
  registerRoute(app, c.importDataManagers, async (req) =>
    importDataManagers(ctx, requireActor(req), req.body.csv, requestLanguage(req, ctx)),
  );

  registerRoute(app, c.listPublicUsers, async (req) => listPublicUsers(ctx, requireActor(req), req.query));
  registerRoute(app, c.getPublicUser, async (req) =>
    getPublicUser(ctx, requireActor(req), req.params.publicUserId),
  );

  registerRoute(app, c.listCompanies, async (req) => listCompanies(ctx, requireActor(req), req.query));
  registerRoute(app, c.suspendCompany, async (req) => {
    const { company, ...change } = await setCompanySuspended(ctx, requireActor(req), req.params.companyId, {
      reason: req.body.reason,
    });
    noteChange(req, change);
    return company;
  });
  registerRoute(app, c.resumeCompany, async (req) => {
    const { company, ...change } = await setCompanySuspended(
      ctx,
      requireActor(req),
      req.params.companyId,
      null,
    );
    noteChange(req, change);
    return company;
  });

  registerRoute(app, c.startImpersonation, async (req, reply) => {
    const result = await startImpersonation(ctx, requireActor(req), req.body.userId, clientInfo(req));
    noteChange(req, result.change);
    setSessionCookies(reply, result.tokens, secure);
    return result.me;
  });
  registerRoute(app, c.endImpersonation, async (req, reply) => {
    const csrf = req.headers[CSRF_HEADER];
    const result = await endImpersonation(
      ctx,
      req.cookies[REFRESH_COOKIE],
      typeof csrf === 'string' ? csrf : undefined,
    );
    // The entry names the operator who comes back, with whom they had viewed as.
    req.actor = result.actor;
    noteChange(req, result.change);
    setSessionCookies(reply, result.tokens, secure);
    return result.me;
  });
}
