import type { AppContext } from '../../app-context.ts';

/** Where the authorization server lives, below the API (its issuer identifier). */
export const OAUTH_PATH = '/api/v1/oauth';
/** The protected resource: the MCP server. */
export const MCP_PATH = '/api/v1/mcp';
/** Where its interactions (sign-in and consent) start: the provider's cookie is scoped to this path plus the uid. */
export const INTERACTION_PATH = `${OAUTH_PATH}/interaction`;
/** The one scope a token can carry: using the MCP server's tools as the user. */
export const MCP_SCOPE = 'mcp';

/* Kept out of oauth-provider.ts, which loads oidc-provider: only the first OAuth request loads it (decision 0056). */
/** How long what the server issues lives, in seconds. */
export const OAUTH_TTL = {
  AccessToken: 3600,
  AuthorizationCode: 60,
  Interaction: 900,
  Session: 900,
  Grant: 30 * 86_400,
  RefreshToken: 30 * 86_400,
} as const;

/** The addresses of the authorization server and of the MCP server as a protected resource (RFC 8414, RFC 9728). */
export function oauthUrls(ctx: AppContext) {
  const base = ctx.config.PUBLIC_URL;
  return {
    issuer: `${base}${OAUTH_PATH}`,
    resource: `${base}${MCP_PATH}`,
    resourceMetadata: `${base}/.well-known/oauth-protected-resource${MCP_PATH}`,
  };
}
