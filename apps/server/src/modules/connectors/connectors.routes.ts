import {
  connectorContracts,
  googleConnectorContracts,
  microsoftConnectorContracts,
} from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { noteChange } from '../../http/activity-hook.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import {
  createConnector,
  deleteConnector,
  getConnector,
  listConnectors,
  pauseConnector,
  resumeConnector,
  syncNow,
  updateConnector,
} from './connectors.service.ts';
import { getGoogleApp, saveGoogleApp } from './google-app.service.ts';
import { completeGoogleConsent, startGoogleConsent } from './google-consent.service.ts';
import { getMicrosoftApp, saveMicrosoftApp } from './microsoft-app.service.ts';
import { completeMicrosoftConsent, startMicrosoftConsent } from './microsoft-consent.service.ts';

export function connectorRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, connectorContracts.list, async (req) => ({
    items: await listConnectors(ctx, requireActor(req), req.params.divisionId),
  }));
  registerRoute(app, connectorContracts.create, async (req, reply) => {
    const connector = await createConnector(ctx, requireActor(req), req.params.divisionId, req.body);
    reply.code(201);
    return connector;
  });
  registerRoute(app, connectorContracts.get, async (req) =>
    getConnector(ctx, requireActor(req), req.params.connectorId),
  );
  registerRoute(app, connectorContracts.update, async (req) =>
    updateConnector(ctx, requireActor(req), req.params.connectorId, req.body),
  );
  registerRoute(app, connectorContracts.sync, async (req, reply) => {
    const connector = await syncNow(ctx, requireActor(req), req.params.connectorId);
    reply.code(202);
    return connector;
  });
  registerRoute(app, connectorContracts.pause, async (req) =>
    pauseConnector(ctx, requireActor(req), req.params.connectorId),
  );
  registerRoute(app, connectorContracts.resume, async (req) =>
    resumeConnector(ctx, requireActor(req), req.params.connectorId),
  );
  registerRoute(app, connectorContracts.remove, async (req, reply) => {
    await deleteConnector(ctx, requireActor(req), req.params.connectorId);
    reply.code(204);
    return null;
  });
  registerRoute(app, microsoftConnectorContracts.consent, async (req) =>
    startMicrosoftConsent(ctx, requireActor(req), req.params.divisionId, req.body),
  );
  registerRoute(app, microsoftConnectorContracts.complete, async (req, reply) => {
    const connector = await completeMicrosoftConsent(ctx, requireActor(req), req.body);
    reply.code(201);
    return connector;
  });
  registerRoute(app, microsoftConnectorContracts.getApp, async () => getMicrosoftApp(ctx));
  registerRoute(app, microsoftConnectorContracts.saveApp, async (req) => {
    const { app: saved, change } = await saveMicrosoftApp(ctx, requireActor(req), req.body);
    noteChange(req, change);
    return saved;
  });
  registerRoute(app, googleConnectorContracts.consent, async (req) =>
    startGoogleConsent(ctx, requireActor(req), req.params.divisionId, req.body),
  );
  registerRoute(app, googleConnectorContracts.complete, async (req, reply) => {
    const connector = await completeGoogleConsent(ctx, requireActor(req), req.body);
    reply.code(201);
    return connector;
  });
  registerRoute(app, googleConnectorContracts.getApp, async () => getGoogleApp(ctx));
  registerRoute(app, googleConnectorContracts.saveApp, async (req) => {
    const { app: saved, change } = await saveGoogleApp(ctx, requireActor(req), req.body);
    noteChange(req, change);
    return saved;
  });
}
