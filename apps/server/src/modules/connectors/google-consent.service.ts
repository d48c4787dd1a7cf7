import { type Connector, type consentCompleteBodySchema, googleConsentBodySchema } from '@werkwissen/shared';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { connectableDivision, unreachable } from './connectors.service.ts';
import { googleOAuth, googleRedirectUri, requireGoogleApp } from './google-app.service.ts';
import { DriveApi, type DriveFile, FOLDER_MIME, GOOGLE_DRIVE_SCOPE } from './google-drive-api.ts';
import { consentAddress, openConsentState, redeemCode, storeConsentedConnector } from './oauth-consent.ts';
import { SourceApi } from './source-api.ts';
import { SourceError, sourceFailure } from './source-client.ts';

type ConsentInput = z.output<typeof googleConsentBodySchema>;
type CompleteInput = z.output<typeof consentCompleteBodySchema>;

/**
 * Starts connecting a Google Drive folder: the address of Google's consent page for the operator's OAuth client
 * (read-only Drive scope; `access_type=offline` and `prompt=consent`, so that Google hands out a refresh token every
 * time), the chosen drive and folder sealed into the state (`oauth-consent.ts`).
 */
export async function startGoogleConsent(
  ctx: AppContext,
  actor: Actor,
  divisionId: string,
  body: ConsentInput,
): Promise<{ authorizationUrl: string }> {
  await connectableDivision(ctx, actor, divisionId);
  const app = await requireGoogleApp(ctx);
  return consentAddress(ctx, actor, divisionId, body, {
    config: googleOAuth(ctx, app),
    redirectUri: await googleRedirectUri(ctx),
    params: { scope: GOOGLE_DRIVE_SCOPE, access_type: 'offline', prompt: 'consent' },
  });
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
  const consent = openConsentState(ctx, actor, body.state, googleConsentBodySchema);
  const division = await connectableDivision(ctx, actor, consent.divisionId);
  const app = await requireGoogleApp(ctx);
  const oauth = googleOAuth(ctx, app);
  const redirectUri = await googleRedirectUri(ctx);
  const tokens = await redeemCode(ctx, actor, oauth, redirectUri, body, consent.codeVerifier, 'googledrive');
  const { settings } = consent;
  const api = new SourceApi(ctx, oauth, tokens, async () => {}, { service: 'Google Drive' });
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
    url: settings.driveId ? `${app.driveUrl}/drives/${settings.driveId}` : app.driveUrl,
    account,
    refreshToken: api.refreshToken,
    folder: settings.folderId ? (folder.name ?? '') : settings.folder,
    remoteFolderId: folder.id,
  });
}
