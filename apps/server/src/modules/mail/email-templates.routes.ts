import { emailTemplateContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { noteChange } from '../../http/activity-hook.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import {
  getEmailTemplate,
  listEmailTemplates,
  previewEmailTemplate,
  resetEmailTemplate,
  sendTestEmail,
  updateEmailTemplate,
} from './email-templates.service.ts';

export function emailTemplateRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, emailTemplateContracts.list, async () => listEmailTemplates(ctx));
  registerRoute(app, emailTemplateContracts.get, async (req) =>
    getEmailTemplate(ctx, requireActor(req), req.params.kind),
  );
  registerRoute(app, emailTemplateContracts.update, async (req) => {
    const { template, change } = await updateEmailTemplate(ctx, requireActor(req), {
      ...req.params,
      text: req.body,
    });
    noteChange(req, change);
    return template;
  });
  registerRoute(app, emailTemplateContracts.reset, async (req) => {
    const { template, change } = await resetEmailTemplate(ctx, req.params);
    noteChange(req, change);
    return template;
  });
  registerRoute(app, emailTemplateContracts.preview, async (req) =>
    previewEmailTemplate(ctx, { ...req.params, text: req.body }),
  );
  registerRoute(app, emailTemplateContracts.sendTest, async (req, reply) => {
    const sent = await sendTestEmail(ctx, requireActor(req), req.params);
    reply.code(202);
    return sent;
  });
}
