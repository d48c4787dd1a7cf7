import { mcpOAuthContracts } from '@werkwissen/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { registerRoute, requireActor } from '../../http/route.ts';
import { takeSlotsOrRefuse } from '../limits/limit-error.ts';
import { listConnectedApps, revokeConnectedApp } from './connected-apps.service.ts';
import {
  assertGrantor,
  consentResult,
  describeConsent,
  type InteractionDetails,
} from './oauth-consent.service.ts';
import { oauthProvider } from './oauth-server.ts';
import { MCP_PATH, MCP_SCOPE, OAUTH_PATH, oauthUrls } from './oauth-urls.ts';

/** Client registrations (RFC 7591, open to anyone) one address may make per hour. */
export const REGISTRATIONS_PER_HOUR = 20;

/** Hands the request to the provider as if it were mounted at its issuer's path (`path` below it). */
async function toProvider(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, path: string) {
  const provider = await oauthProvider(ctx);
  const raw = request.raw as FastifyRequest['raw'] & { originalUrl?: string };
  // The provider finds its mount path as what precedes `url` in `originalUrl`.
  raw.originalUrl = `${OAUTH_PATH}${path}`;
  raw.url = path;
  reply.hijack();
  await provider.callback()(raw, reply.raw);
}

/** The provider's interaction of this browser (its cookie, scoped to the interaction's path), or 404. */
async function interactionOf(
  provider: Provider,
  request: FastifyRequest<{ Params: { uid: string } }>,
  reply: FastifyReply,
): Promise<InteractionDetails> {
  const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => null);
  if (!details || details.uid !== request.params.uid) throw new AppError('NOT_FOUND');
  return { uid: details.uid, params: details.params };
}

/**
 * The MCP authorization server (OAuth 2.1, oidc-provider) mounted at /api/v1/oauth, the metadata of the MCP server as
 * a protected resource (RFC 9728) and of the authorization server (RFC 8414) at their well-known addresses, and the
 * sign-in and consent step, answered by the product's consent page as the signed-in user.
 */
export function mcpOAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const server = { permission: 'oauthServer' as const };
  void app.register(async (scope) => {
    // The provider reads the bodies itself (form posts, JSON registrations): nothing here may consume them.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.route({
      method: ['GET', 'POST', 'DELETE', 'PUT', 'OPTIONS'],
      url: `${OAUTH_PATH}/*`,
      config: server,
      schema: { hide: true },
      handler: async (request, reply) => {
        const path = request.url.slice(OAUTH_PATH.length) || '/';
        if (request.method === 'POST' && path.split('?')[0] === '/register') {
          await takeSlotsOrRefuse(ctx, [
            { bucket: 'oauth:register', key: request.ip, max: REGISTRATIONS_PER_HOUR, windowSeconds: 3600 },
          ]);
        }
        await toProvider(ctx, request, reply, path);
      },
    });
    // RFC 8414's address for an issuer with a path: the same document the provider serves below its issuer.
    scope.get(
      `/.well-known/oauth-authorization-server${OAUTH_PATH}`,
      { config: server, schema: { hide: true } },
      async (request, reply) => toProvider(ctx, request, reply, '/.well-known/openid-configuration'),
    );
  });

  const resourceMetadata = () => ({
    resource: oauthUrls(ctx).resource,
    authorization_servers: [oauthUrls(ctx).issuer],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: ctx.config.APP_TITLE,
    resource_documentation: `${ctx.config.PUBLIC_URL}/api/docs`,
  });
  for (const url of [
    `/.well-known/oauth-protected-resource${MCP_PATH}`,
    '/.well-known/oauth-protected-resource',
  ]) {
    app.get(url, { config: server, schema: { hide: true } }, async (_request, reply) => {
      reply.header('access-control-allow-origin', '*');
      reply.header('cache-control', 'public, max-age=3600');
      return resourceMetadata();
    });
  }

  registerRoute(app, mcpOAuthContracts.interaction, async (req, reply) =>
    reply.redirect(`/oauth/consent/${encodeURIComponent(req.params.uid)}`, 302),
  );
  registerRoute(app, mcpOAuthContracts.consent, async (req, reply) => {
    const actor = requireActor(req);
    assertGrantor(actor);
    const provider = await oauthProvider(ctx);
    return describeConsent(ctx, actor, provider, await interactionOf(provider, req, reply));
  });
  registerRoute(app, mcpOAuthContracts.answer, async (req, reply) => {
    const actor = requireActor(req);
    assertGrantor(actor);
    const provider = await oauthProvider(ctx);
    const details = await interactionOf(provider, req, reply);
    const result = await consentResult(ctx, actor, provider, details, req.body.allow);
    const redirectTo = await provider.interactionResult(req.raw, reply.raw, result, {
      mergeWithLastSubmission: false,
    });
    return { redirectTo };
  });
  registerRoute(app, mcpOAuthContracts.listApps, async (req) =>
    listConnectedApps(ctx, requireActor(req), req.query),
  );
  registerRoute(app, mcpOAuthContracts.revokeApp, async (req, reply) => {
    await revokeConnectedApp(ctx, requireActor(req), req.params.grantId);
    return reply.code(204).send();
  });
}
