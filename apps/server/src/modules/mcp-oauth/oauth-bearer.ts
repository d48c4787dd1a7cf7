import type { AppContext } from '../../app-context.ts';
import { type Actor, loadOAuthActor } from '../../core/actor.ts';
import type { BearerResource } from '../../http/request-guard.ts';
import { oauthProvider } from './oauth-server.ts';
import { MCP_SCOPE, oauthUrls } from './oauth-urls.ts';

/**
 * The MCP server as a protected resource (RFC 9728): a bearer token that is no API key is looked up as an access
 * token of the authorization server, and accepted only while it lives, is not revoked, was issued for this resource
 * (its audience) and its user is still admitted; the token acts as that user, with their roles and rules.
 */
export function mcpBearerResource(ctx: AppContext): BearerResource {
  return {
    async actorOf(token: string): Promise<Actor | null> {
      if (token.startsWith('ww_') || token.length > 200) return null;
      const provider = await oauthProvider(ctx);
      const accessToken = await provider.AccessToken.find(token);
      if (!accessToken?.accountId || accessToken.isExpired) return null;
      const audience = Array.isArray(accessToken.aud) ? accessToken.aud : [accessToken.aud];
      if (!audience.includes(oauthUrls(ctx).resource)) return null;
      return loadOAuthActor(ctx.db, accessToken.accountId);
    },
    challenge(error?: 'invalid_token') {
      const parts = [
        ...(error ? [`error="${error}"`] : []),
        `resource_metadata="${oauthUrls(ctx).resourceMetadata}"`,
        `scope="${MCP_SCOPE}"`,
      ];
      return `Bearer ${parts.join(', ')}`;
    },
  };
}
