import {
  type Connector,
  type microsoftCompleteBodySchema,
  microsoftConsentBodySchema,
} from '@werkwissen/shared';
import * as client from 'openid-client';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { connectors } from '../../db/schema/index.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { connectableDivision, getConnector, unreachable } from './connectors.service.ts';
import { GraphApi } from './graph-api.ts';
import { microsoftRedirectUri, requireMicrosoftApp } from './microsoft-app.service.ts';
import { MICROSOFT_SCOPE, microsoftOAuth, redeemConsent } from './microsoft-oauth.ts';
import { SourceError, sourceFailure } from './source-client.ts';
import { requestSync } from './sync-queue.ts';

type ConsentInput = z.output<typeof microsoftConsentBodySchema>;
type CompleteInput = z.output<typeof microsoftCompleteBodySchema>;

/** How long a consent may take from the button to the return. */
const CONSENT_MINUTES = 15;

/** What the state carries through Microsoft, sealed: whose consent, for which division, its PKCE verifier, expiry. */
const sealedState = z.object({
  userId: z.uuid(),
  divisionId: z.uuid(),
  codeVerifier: z.string().min(43),
  expiresAt: z.number(),
  settings: microsoftConsentBodySchema,
});

/**
 * Starts connecting a Microsoft 365 folder: the address of Microsoft's consent page for the operator's app
 * (authorization code flow, PKCE S256). The state is sealed under the installation's key and carries the verifier,
 * the chosen drive and folder, the user and an expiry, so that nothing is stored before the consent is given and only
 * the same user can complete it.
 */
export async function startMicrosoftConsent(
  ctx: AppContext,
  actor: Actor,
  divisionId: string,
  body: ConsentInput,
): Promise<{ authorizationUrl: string }> {
  await connectableDivision(ctx, actor, divisionId);
  const app = await requireMicrosoftApp(ctx);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = new SecretBox(ctx.config.secrets.encryptionKey).seal(
    JSON.stringify({
      userId: actor.userId,
      divisionId,
      codeVerifier,
      expiresAt: Date.now() + CONSENT_MINUTES * 60_000,
      settings: body,
    } satisfies z.input<typeof sealedState>),
  );
  const url = client.buildAuthorizationUrl(microsoftOAuth(ctx, app), {
    redirect_uri: await microsoftRedirectUri(ctx),
    scope: MICROSOFT_SCOPE,
    response_type: 'code',
    response_mode: 'query',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    prompt: 'select_account',
  });
  return { authorizationUrl: url.toString() };
}

/** The sealed state, if it is this server's, unexpired and the actor's; else CONNECTOR_CONSENT_INVALID. */
function openState(ctx: AppContext, actor: Actor, state: string) {
  let parsed: z.output<typeof sealedState>;
  try {
    parsed = sealedState.parse(JSON.parse(new SecretBox(ctx.config.secrets.encryptionKey).open(state)));
  } catch {
    throw new AppError('CONNECTOR_CONSENT_INVALID');
  }
  if (parsed.userId !== actor.userId || parsed.expiresAt < Date.now())
    throw new AppError('CONNECTOR_CONSENT_INVALID');
  return parsed;
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
  const consent = openState(ctx, actor, body.state);
  const division = await connectableDivision(ctx, actor, consent.divisionId);
  const app = await requireMicrosoftApp(ctx);
  const oauth = microsoftOAuth(ctx, app);
  const callback = new URL(await microsoftRedirectUri(ctx));
  callback.searchParams.set('code', body.code);
  callback.searchParams.set('state', body.state);
  let tokens: Awaited<ReturnType<typeof redeemConsent>>;
  try {
    tokens = await redeemConsent(oauth, callback, { codeVerifier: consent.codeVerifier, state: body.state });
  } catch (error) {
    if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
      ctx.log.warn({ err: error }, 'Microsoft refused a consent code');
      throw new AppError('CONNECTOR_CONSENT_FAILED');
    }
    throw unreachable(sourceFailure(error), actor.language);
  }
  const { settings } = consent;
  const api = new GraphApi(ctx, oauth, tokens.refreshToken, async () => {}, tokens.accessToken);
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
    throw unreachable(sourceFailure(error), actor.language);
  }
  const [row] = await ctx.db
    .insert(connectors)
    .values({
      companyId: division.companyId,
      divisionId: division.id,
      ownerId: actor.userId,
      kind: 'microsoft365',
      name: settings.name,
      url: `${app.graphUrl}/drives/${found.driveId}/root:/`,
      userName: found.account.slice(0, 254),
      secretSealed: new SecretBox(ctx.config.secrets.encryptionKey).seal(api.refreshToken),
      folder: settings.folder,
      remoteFolderId: found.folderId,
      fileTypes: [...new Set(settings.fileTypes)],
      intervalMinutes: settings.intervalMinutes,
    })
    .returning();
  await requestSync(ctx, row!.id);
  return getConnector(ctx, actor, row!.id);
}
