import type { OAuthConsent } from '@werkwissen/shared';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { MCP_SCOPE, OAUTH_TTL, oauthUrls } from './oauth-urls.ts';

/** What the provider knows of an interaction in progress (its `interactionDetails`). */
export interface InteractionDetails {
  uid: string;
  params: Record<string, unknown>;
}

/** The scopes a client may be granted at the server itself (`mcp` also names the MCP server's scope). */
const SERVER_SCOPES = new Set(['openid', 'offline_access', MCP_SCOPE]);

/**
 * Only a person at their own session grants access: not an API key or a token (they never reach here by cookie),
 * and not an operator viewing the product as someone else.
 */
export function assertGrantor(actor: Actor) {
  if (actor.via !== 'session' || actor.impersonator) throw new AppError('FORBIDDEN');
}

/** What the consent page shows: which client asks, for which MCP server, for whom. */
export async function describeConsent(
  ctx: AppContext,
  actor: Actor,
  provider: Provider,
  details: InteractionDetails,
): Promise<OAuthConsent> {
  assertGrantor(actor);
  const clientId = String(details.params.client_id ?? '');
  const client = await provider.Client.find(clientId);
  if (!client) throw new AppError('NOT_FOUND');
  const redirect = String(details.params.redirect_uri ?? '');
  return {
    clientName: client.clientName ?? clientId,
    clientId,
    redirectHost: URL.canParse(redirect) ? new URL(redirect).host || redirect : redirect,
    resource: oauthUrls(ctx).resource,
    email: actor.email,
    accessTokenSeconds: OAUTH_TTL.AccessToken,
    refreshTokenSeconds: OAUTH_TTL.RefreshToken,
  };
}

/**
 * The user's answer as the provider takes it: a denial, or their sign-in and a grant of what the client asked (the
 * `mcp` scope at the MCP server, and of the scopes `openid`, `offline_access` and `mcp` those asked), so the flow needs no second round.
 */
export async function consentResult(
  ctx: AppContext,
  actor: Actor,
  provider: Provider,
  details: InteractionDetails,
  allow: boolean,
): Promise<InteractionResults> {
  assertGrantor(actor);
  if (!allow) return { error: 'access_denied', error_description: 'The user denied access' };
  const clientId = String(details.params.client_id ?? '');
  const asked = String(details.params.scope ?? '')
    .split(' ')
    .filter(Boolean);
  const grant = new provider.Grant({ accountId: actor.userId, clientId });
  const oidc = asked.filter((scope) => SERVER_SCOPES.has(scope));
  if (oidc.length > 0) grant.addOIDCScope(oidc.join(' '));
  grant.addResourceScope(oauthUrls(ctx).resource, MCP_SCOPE);
  const grantId = await grant.save();
  return { login: { accountId: actor.userId, remember: false }, consent: { grantId } };
}
