import type { AppContext } from '../../app-context.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { loadGoogleApp } from './google-app.service.ts';
import { googleDriveSource } from './google-drive-source.ts';
import { graphSource } from './graph-source.ts';
import { loadMicrosoftApp } from './microsoft-app.service.ts';
import { type SourceClient, SourceError } from './source-client.ts';
import type { ConnectorRow } from './sync.service.ts';
import { webdavSource } from './webdav-source.ts';

/**
 * The source of a stored connector, its secret (a password, a refresh token) opened from the sealed form, through the
 * outbound policy. A Microsoft 365 or Google Drive connector needs the operator's OAuth app: without it the sync fails
 * as refused.
 */
export async function openSource(
  ctx: AppContext,
  connector: ConnectorRow,
  signal?: AbortSignal,
): Promise<SourceClient> {
  if (connector.kind === 'microsoft365') {
    const app = await loadMicrosoftApp(ctx);
    if (!app) throw new SourceError('auth', 'the Entra app is no longer registered');
    return graphSource(ctx, app, connector, signal);
  }
  if (connector.kind === 'googledrive') {
    const app = await loadGoogleApp(ctx);
    if (!app) throw new SourceError('auth', 'the Google OAuth client is no longer registered');
    return googleDriveSource(ctx, app, connector, signal);
  }
  const password = new SecretBox(ctx.config.secrets.encryptionKey).open(connector.secretSealed);
  return webdavSource(
    { url: connector.url, userName: connector.userName, password, folder: connector.folder },
    ctx.outbound.policy,
  );
}
