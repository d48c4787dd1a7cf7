import * as client from 'openid-client';
import type { AppContext } from '../../app-context.ts';
import { SourceError } from './source-client.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** An OAuth app's endpoints and client, as the operator stored it (Microsoft's Entra app, Google's OAuth client). */
export interface OAuthApp {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  clientId: string;
  clientSecret: string;
}

/**
 * An app's endpoints as an openid-client configuration (client_secret_post), every request through the outbound
 * policy. Plain http only on the loopback (the tests' doubles).
 */
export function oauthConfiguration(ctx: AppContext, app: OAuthApp): client.Configuration {
  const config = new client.Configuration(
    {
      issuer: app.issuer,
      authorization_endpoint: app.authorizationEndpoint,
      token_endpoint: app.tokenEndpoint,
    },
    app.clientId,
    app.clientSecret,
    client.ClientSecretPost(app.clientSecret),
  );
  // openid-client sends forms (URLSearchParams) to the token endpoint; its wider body type never occurs here.
  config[client.customFetch] = (url, options) => ctx.outbound.fetch(url, options as RequestInit);
  const plain = [app.authorizationEndpoint, app.tokenEndpoint].map((u) => new URL(u));
  if (plain.some((u) => u.protocol === 'http:')) {
    if (plain.some((u) => u.protocol === 'http:' && !LOOPBACK.test(u.hostname)))
      throw new SourceError('blocked', 'plain http to the identity provider');
    client.allowInsecureRequests(config);
  }
  return config;
}

/** The access and (rotated, or else the same) refresh token a grant returned. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken: string;
}

function tokensOf(response: client.TokenEndpointResponse, previousRefresh?: string): OAuthTokens {
  const refreshToken = response.refresh_token ?? previousRefresh;
  if (!refreshToken) throw new SourceError('protocol', 'no refresh token: offline access was not granted');
  return { accessToken: response.access_token, refreshToken };
}

/** Redeems a consent's code (`callbackUrl`: the redirect URI with the provider's query) with its PKCE verifier. */
export async function redeemConsent(
  config: client.Configuration,
  callbackUrl: URL,
  checks: { codeVerifier: string; state: string },
): Promise<OAuthTokens> {
  const response = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
  });
  return tokensOf(response);
}

/**
 * A new access token for a stored refresh token (`scope` asked again where the provider wants it, as Microsoft does).
 * Microsoft and Google answer `invalid_grant` when the consent was withdrawn, the password changed or the token
 * expired: `revoked`, which pauses the connector at once.
 */
export async function refreshAccess(
  config: client.Configuration,
  refreshToken: string,
  scope?: string,
): Promise<OAuthTokens> {
  try {
    return tokensOf(
      await client.refreshTokenGrant(config, refreshToken, scope ? { scope } : undefined),
      refreshToken,
    );
  } catch (error) {
    if (error instanceof client.ResponseBodyError && error.error === 'invalid_grant')
      throw new SourceError('revoked', `refresh token refused: ${error.error_description ?? error.error}`);
    if (error instanceof client.ResponseBodyError && error.error === 'invalid_client')
      throw new SourceError('auth', `the app was refused: ${error.error_description ?? error.error}`);
    throw error;
  }
}
