import {
  type Connector,
  type consentCompleteBodySchema,
  microsoftConsentBodySchema,
} from '@werkwissen/shared';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { unreachable } from './connectors.service.ts';
import { microsoftRedirectUri, requireMicrosoftApp } from './microsoft-app.service.ts';
import { MICROSOFT_SCOPE, microsoftOAuth } from './microsoft-oauth.ts';
import { finishConsent, startConsent, storeConsentedConnector } from './oauth-consent.ts';
import { SourceApi } from './source-api.ts';
import { SourceError, sourceFailure } from './source-client.ts';

type ConsentInput = z.output<typeof microsoftConsentBodySchema>;
type CompleteInput = z.output<typeof consentCompleteBodySchema>;

/** The operator's Entra app as the consent's provider (MICROSOFT_APP_UNCONFIGURED without one). */
async function microsoftProvider(ctx: AppContext) {
  const app = await requireMicrosoftApp(ctx);
  return {
    app,
    config: microsoftOAuth(ctx, app),
    redirectUri: await microsoftRedirectUri(ctx),
    params: { scope: MICROSOFT_SCOPE, response_mode: 'query', prompt: 'select_account' },
  };
}

/**
 * Starts connecting a Microsoft 365 folder: the address of Microsoft's consent page for the operator's app, the
 * chosen drive and folder sealed into the state (`oauth-consent.ts`).
 */
export function startMicrosoftConsent(ctx: AppContext, actor: Actor, divisionId: string, body: ConsentInput) {
  return startConsent(ctx, actor, divisionId, body, () => microsoftProvider(ctx));
}

/** A folder path of a drive as Graph addresses it (`root:/a/b`), each segment encoded. */
const itemPath = (folder: string) =>
  folder ? `root:/${folder.split('/').map(encodeURIComponent).join('/')}` : 'root';

/**
 * Ends a consent: the code is redeemed with the PKCE verifier, the drive and folder are looked up with the new token
 * (so that a wrong drive or folder is said at once and nothing is stored), and the connector is stored with the
 * refresh token sealed. Its first sync is queued at once.
 */
export async function completeMicrosoftConsent(
  ctx: AppContext,
  actor: Actor,
  body: CompleteInput,
): Promise<Connector> {
  const { settings, division, provider, tokens } = await finishConsent(
    ctx,
    actor,
    body,
    'microsoft365',
    microsoftConsentBodySchema,
    () => microsoftProvider(ctx),
  );
  const { app } = provider;
  const api = new SourceApi(ctx, provider.config, tokens, async () => {}, {
    service: 'Microsoft Graph',
    scope: MICROSOFT_SCOPE,
  });
  let found: { driveId: string; folderId: string; account: string };
  try {
    const drive = await api.json<{ id: string }>(
      settings.driveId
        ? `${app.graphUrl}/drives/${encodeURIComponent(settings.driveId)}`
        : `${app.graphUrl}/me/drive`,
    );
    const folder = await api.json<{ id: string; folder?: object; root?: object }>(
      `${app.graphUrl}/drives/${encodeURIComponent(drive.id)}/${itemPath(settings.folder)}`,
    );
    if (!folder.folder && !folder.root) throw new SourceError('not-found', 'not a folder');
    const me = await api.json<{ userPrincipalName?: string; mail?: string; displayName?: string }>(
      `${app.graphUrl}/me`,
    );
    found = {
      driveId: drive.id,
      folderId: folder.id,
      account: me.userPrincipalName ?? me.mail ?? me.displayName ?? '',
    };
  } catch (error) {
    throw unreachable(sourceFailure(error), actor.language, 'microsoft365');
  }
  return storeConsentedConnector(ctx, actor, division, {
    kind: 'microsoft365',
    settings,
    url: `${app.graphUrl}/drives/${found.driveId}/root:/`,
    account: found.account,
    refreshToken: api.refreshToken,
    folder: settings.folder,
    remoteFolderId: found.folderId,
  });
}
