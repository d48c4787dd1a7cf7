import type * as client from 'openid-client';
import type { AppContext } from '../../app-context.ts';
import { oauthConfiguration } from './connector-oauth.ts';
import type { ResolvedMicrosoftApp } from './microsoft-app.service.ts';

/**
 * What a connector asks for: reading the files the consenting account can read (its OneDrive, the SharePoint
 * libraries it may open) and a refresh token (`offline_access`). No ID token: the account's name comes from Graph.
 */
export const MICROSOFT_SCOPE = 'offline_access Files.Read.All Sites.Read.All User.Read';

/** The app's endpoints at Microsoft's identity platform (v2.0, the operator's tenant). */
export function microsoftOAuth(ctx: AppContext, app: ResolvedMicrosoftApp): client.Configuration {
  const base = `${app.loginUrl}/${app.tenant}`;
  return oauthConfiguration(ctx, {
    issuer: `${base}/v2.0`,
    authorizationEndpoint: `${base}/oauth2/v2.0/authorize`,
    tokenEndpoint: `${base}/oauth2/v2.0/token`,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
  });
}
