import { companyBrandingContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { getCompanyBranding, setBrandColor } from './company-branding.service.ts';
import {
  publicCompanyLogo,
  readCompanyLogoPart,
  removeCompanyLogo,
  replaceCompanyLogo,
} from './company-logo.service.ts';
import { removeDefaultDocument, replaceDefaultDocument } from './default-document.service.ts';

export function companyBrandingRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, companyBrandingContracts.get, (req) => getCompanyBranding(ctx, requireActor(req)));

  registerRoute(app, companyBrandingContracts.uploadLogo, async (req) => {
    if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    const actor = requireActor(req);
    await replaceCompanyLogo(ctx, actor, await readCompanyLogoPart(await req.file()));
    return getCompanyBranding(ctx, actor);
  });

  registerRoute(app, companyBrandingContracts.removeLogo, async (req) => {
    const actor = requireActor(req);
    await removeCompanyLogo(ctx, actor);
    return getCompanyBranding(ctx, actor);
  });

  registerRoute(app, companyBrandingContracts.logo, async (req, reply) => {
    const logo = await publicCompanyLogo(ctx, req.params.companyId);
    const etag = `"${logo.sha256}"`;
    reply
      .header('content-type', 'image/png')
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
      // Shown in mails: the log's sandboxed preview (an opaque origin) and webmail load it from another origin.
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('cache-control', 'public, max-age=300');
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(logo.content);
  });

  registerRoute(app, companyBrandingContracts.setBrandColor, async (req) => {
    const actor = requireActor(req);
    await setBrandColor(ctx, actor, req.body.brandColor);
    return getCompanyBranding(ctx, actor);
  });

  registerRoute(app, companyBrandingContracts.uploadDefaultDocument, async (req) => {
    if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    const actor = requireActor(req);
    await replaceDefaultDocument(ctx, actor, req.files());
    return getCompanyBranding(ctx, actor);
  });

  registerRoute(app, companyBrandingContracts.removeDefaultDocument, async (req) => {
    const actor = requireActor(req);
    await removeDefaultDocument(ctx, actor);
    return getCompanyBranding(ctx, actor);
  });
}
