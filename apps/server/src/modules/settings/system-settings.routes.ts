import { type SettingsTab, systemSettingsContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { noteChange } from '../../http/activity-hook.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { logoContent, readLogoPart, removeLogo, replaceLogo } from './logo.service.ts';
import { getSystemSettings, updateSettingsTab } from './system-settings.service.ts';

const TAB_CONTRACTS = {
  general: systemSettingsContracts.updateGeneral,
  signUp: systemSettingsContracts.updateSignUp,
  plans: systemSettingsContracts.updatePlans,
  branding: systemSettingsContracts.updateBranding,
  activityLog: systemSettingsContracts.updateActivityLog,
  mailBudget: systemSettingsContracts.updateMailBudget,
} as const;

export function systemSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, systemSettingsContracts.get, async () => getSystemSettings(ctx));

  for (const [tab, contract] of Object.entries(TAB_CONTRACTS) as [
    SettingsTab,
    (typeof TAB_CONTRACTS)[SettingsTab],
  ][]) {
    registerRoute(app, contract, async (req) => {
      // biome-ignore lint/plugin: one handler for every tab's contract: the body is the tab's, checked by its schema
      const { settings, change } = await updateSettingsTab(ctx, requireActor(req), tab, req.body as never);
      noteChange(req, change);
      return settings;
    });
  }

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
