import * as client from 'openid-client';
import type { AppContext } from '../../app-context.ts';
import type { ResolvedMicrosoftApp } from './microsoft-app.service.ts';
import { SourceError } from './source-client.ts';

/**
 * What a connector asks for: reading the files the consenting account can read (its OneDrive, the SharePoint
 * libraries it may open) and a refresh token (`offline_access`). No ID token: the account's name comes from Graph.
 */
export const MICROSOFT_SCOPE = 'offline_access Files.Read.All Sites.Read.All User.Read';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/**
 * The app's endpoints at Microsoft's identity platform (v2.0, the operator's tenant) as an openid-client
 * configuration, every request through the outbound policy. Plain http only on the loopback (the tests' double).
 */
export function microsoftOAuth(ctx: AppContext, app: ResolvedMicrosoftApp): client.Configuration {
  const base = `${app.loginUrl}/${app.tenant}`;
  const config = new client.Configuration(
    {
      issuer: `${base}/v2.0`,
      authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
      token_endpoint: `${base}/oauth2/v2.0/token`,
    },
    app.clientId,
    app.clientSecret,
    client.ClientSecretPost(app.clientSecret),
  );
  // openid-client sends forms (URLSearchParams) to the token endpoint; its wider body type never occurs here.
  config[client.customFetch] = (url, options) => ctx.outbound.fetch(url, options as RequestInit);
  const login = new URL(app.loginUrl);
  if (login.protocol === 'http:') {
    if (!LOOPBACK.test(login.hostname))
      throw new SourceError('blocked', 'plain http to the identity platform');
    client.allowInsecureRequests(config);
  }
  return config;
}

/** The access and (rotated) refresh token a grant returned. */
export interface MicrosoftTokens {
  accessToken: string;
  refreshToken: string;
}

function tokensOf(response: client.TokenEndpointResponse, previousRefresh?: string): MicrosoftTokens {
  const refreshToken = response.refresh_token ?? previousRefresh;
  if (!refreshToken) throw new SourceError('protocol', 'no refresh token: offline_access was not granted');
  return { accessToken: response.access_token, refreshToken };
}

/** Redeems a consent's code (`callbackUrl`: the redirect URI with Microsoft's query) with its PKCE verifier. */
export async function redeemConsent(
  config: client.Configuration,
  callbackUrl: URL,
  checks: { codeVerifier: string; state: string },
): Promise<MicrosoftTokens> {
  const response = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
  });
  return tokensOf(response);
}

/**
 * A new access token for a stored refresh token. Microsoft answers `invalid_grant` when the consent was withdrawn,
 * the password changed or the token expired: `revoked`, which pauses the connector at once.
 */
export async function refreshAccess(
  config: client.Configuration,
  refreshToken: string,
): Promise<MicrosoftTokens> {
  try {
    return tokensOf(
      await client.refreshTokenGrant(config, refreshToken, { scope: MICROSOFT_SCOPE }),
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
