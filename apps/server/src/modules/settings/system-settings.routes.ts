import { type SettingsTab, type SettingsValues, systemSettingsContracts } from '@werkwissen/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { noteChange } from '../../http/activity-hook.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { logoContent, readLogoPart, removeLogo, replaceLogo } from './logo.service.ts';
import { getSystemSettings, updateSettingsTab } from './system-settings.service.ts';

export function systemSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, systemSettingsContracts.get, async () => getSystemSettings(ctx));

  /** Saves one tab, its body checked by that tab's contract. */
  const saveTab = async <T extends SettingsTab>(req: FastifyRequest, tab: T, body: SettingsValues[T]) => {
    const { settings, change } = await updateSettingsTab(ctx, requireActor(req), tab, body);
    noteChange(req, change);
    return settings;
  };
  const c = systemSettingsContracts;
  registerRoute(app, c.updateGeneral, (req) => saveTab(req, 'general', req.body));
  registerRoute(app, c.updateSignUp, (req) => saveTab(req, 'signUp', req.body));
  registerRoute(app, c.updatePlans, (req) => saveTab(req, 'plans', req.body));
  registerRoute(app, c.updateBranding, (req) => saveTab(req, 'branding', req.body));
  registerRoute(app, c.updateActivityLog, (req) => saveTab(req, 'activityLog', req.body));
  registerRoute(app, c.updateMailBudget, (req) => saveTab(req, 'mailBudget', req.body));

  registerRoute(app, systemSettingsContracts.uploadLogo, async (req) => {
    if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    const content = await readLogoPart(await req.file());
    const { settings, change } = await replaceLogo(ctx, requireActor(req), content);
    noteChange(req, change);
    return settings;
  });

  registerRoute(app, systemSettingsContracts.removeLogo, async (req) => {
    const { settings, change } = await removeLogo(ctx, requireActor(req));
    noteChange(req, change);
    return settings;
  });

  registerRoute(app, systemSettingsContracts.logo, async (req, reply) => {
    const logo = await logoContent(ctx);
    const etag = `"${logo.sha256}"`;
    reply
      .header('content-type', logo.contentType)
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=300');
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(logo.content);
  });
}
