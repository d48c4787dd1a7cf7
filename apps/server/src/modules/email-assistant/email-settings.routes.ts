import { emailSettingContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import {
  createEmailSetting,
  deleteEmailSetting,
  listEmailSettings,
  testEmailConnection,
  updateEmailSetting,
} from './email-settings.service.ts';
import { listInboundMails } from './inbound-mails.service.ts';

export function emailSettingRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, emailSettingContracts.list, async (req) => ({
    items: await listEmailSettings(ctx, requireActor(req)),
  }));
  registerRoute(app, emailSettingContracts.create, async (req, reply) => {
    const setting = await createEmailSetting(ctx, requireActor(req), req.body);
    reply.code(201);
    return setting;
  });
  registerRoute(app, emailSettingContracts.update, async (req) =>
    updateEmailSetting(ctx, requireActor(req), req.params.settingId, req.body),
  );
  registerRoute(app, emailSettingContracts.remove, async (req, reply) => {
    await deleteEmailSetting(ctx, requireActor(req), req.params.settingId);
    reply.code(204);
    return undefined;
  });
  registerRoute(app, emailSettingContracts.mails, async (req) =>
    listInboundMails(ctx, requireActor(req), req.params.settingId, req.query),
  );
  registerRoute(app, emailSettingContracts.test, async (req) =>
    testEmailConnection(ctx, requireActor(req), req.body),
  );
}
