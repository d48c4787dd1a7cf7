import { type Connector, type consentCompleteBodySchema, googleConsentBodySchema } from '@werkwissen/shared';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { unreachable } from './connectors.service.ts';
import { googleOAuth, googleRedirectUri, requireGoogleApp } from './google-app.service.ts';
import { DriveApi, type DriveFile, FOLDER_MIME, GOOGLE_DRIVE_SCOPE } from './google-drive-api.ts';
import { finishConsent, startConsent, storeConsentedConnector } from './oauth-consent.ts';
import { SourceApi } from './source-api.ts';
import { SourceError, sourceFailure } from './source-client.ts';

type ConsentInput = z.output<typeof googleConsentBodySchema>;
type CompleteInput = z.output<typeof consentCompleteBodySchema>;

/** The operator's Google OAuth client as the consent's provider (GOOGLE_APP_UNCONFIGURED without one). */
async function googleProvider(ctx: AppContext) {
  const app = await requireGoogleApp(ctx);
  return {
    app,
    config: googleOAuth(ctx, app),
    redirectUri: await googleRedirectUri(ctx),
    params: { scope: GOOGLE_DRIVE_SCOPE, access_type: 'offline', prompt: 'consent' },
  };
}

/**
 * Starts connecting a Google Drive folder: the address of Google's consent page for the operator's OAuth client
 * (read-only Drive scope; `access_type=offline` and `prompt=consent`, so that Google hands out a refresh token every
 * time), the chosen drive and folder sealed into the state (`oauth-consent.ts`).
 */
export function startGoogleConsent(ctx: AppContext, actor: Actor, divisionId: string, body: ConsentInput) {
  return startConsent(ctx, actor, divisionId, body, () => googleProvider(ctx));
}

/**
 * Ends a consent: the code is redeemed with the PKCE verifier, the shared drive and the folder (by id, else by path)
 * are looked up with the new token (a wrong one is said at once and nothing is stored), and the connector is stored
 * with the refresh token sealed and the folder's id. Its first sync is queued at once.
 */
export async function completeGoogleConsent(
  ctx: AppContext,
  actor: Actor,
  body: CompleteInput,
): Promise<Connector> {
  const { settings, division, provider, tokens } = await finishConsent(
    ctx,
    actor,
    body,
    'googledrive',
    googleConsentBodySchema,
    () => googleProvider(ctx),
  );
  const { app } = provider;
  const api = new SourceApi(ctx, provider.config, tokens, async () => {}, { service: 'Google Drive' });
  const drive = new DriveApi(api, app.driveUrl, settings.driveId);
  let folder: DriveFile;
  let account: string;
  try {
    if (settings.driveId) await drive.sharedDrive();
    folder = settings.folderId ? await drive.file(settings.folderId) : await drive.folderAt(settings.folder);
    if (
      folder.mimeType !== FOLDER_MIME ||
      folder.trashed ||
      (settings.driveId && folder.driveId !== settings.driveId)
    )
      throw new SourceError('not-found', 'not a folder of the drive');
    const about = await api.json<{ user?: { emailAddress?: string; displayName?: string } }>(
      `${app.driveUrl}/about?fields=user(emailAddress,displayName)`,
    );
    account = about.user?.emailAddress ?? about.user?.displayName ?? '';
  } catch (error) {
    throw unreachable(sourceFailure(error), actor.language, 'googledrive');
  }
  return storeConsentedConnector(ctx, actor, division, {
    kind: 'googledrive',
    settings,
    // Shown with the folder after it, as WebDAV's and Graph's addresses are.
    url: settings.driveId ? `${app.driveUrl}/drives/${settings.driveId}/` : `${app.driveUrl}/`,
    account,
    refreshToken: api.refreshToken,
    folder: settings.folderId ? (folder.name ?? '') : settings.folder,
    remoteFolderId: folder.id,
  });
}
