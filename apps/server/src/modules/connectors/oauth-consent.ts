import type { Connector, ConnectorKind, consentCompleteBodySchema } from '@werkwissen/shared';
import * as client from 'openid-client';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { connectors } from '../../db/schema/index.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import { takeSlotsOrRefuse } from '../limits/limit-error.ts';
import { type OAuthTokens, redeemConsent } from './connector-oauth.ts';
import { connectableDivision, getConnector, unreachable } from './connectors.service.ts';
import { sourceFailure } from './source-client.ts';
import { requestSync } from './sync-queue.ts';

type CompleteInput = z.output<typeof consentCompleteBodySchema>;

/** How long a consent may take from the button to the return. */
const CONSENT_MINUTES = 15;
/** Consents one user may start in CONSENT_WINDOW_SECONDS (each seals a state and sends the browser away). */
const CONSENTS_PER_WINDOW = 20;
const CONSENT_WINDOW_SECONDS = 600;

/** What the state carries through the provider, sealed: whose consent, for which division, its PKCE verifier. */
const sealedState = z.object({
  userId: z.uuid(),
  divisionId: z.uuid(),
  codeVerifier: z.string().min(43),
  expiresAt: z.number(),
  settings: z.unknown(),
});

/** The provider's side of a consent: its configuration, the redirect URI registered with it, its own parameters. */
export interface ConsentProvider {
  config: client.Configuration;
  redirectUri: string;
  params: Record<string, string>;
}

/**
 * Starts connecting a folder by consent: for a division the actor may connect (`provider` fails when the operator's
 * app is missing), within the user's allowance of consents, the address of the provider's consent page
 * (authorization code flow, PKCE S256). The state is sealed under the installation's key and carries the verifier,
 * the chosen settings, the user and an expiry, so that nothing is stored before the consent is given and only the
 * same user can complete it.
 */
export async function startConsent(
  ctx: AppContext,
  actor: Actor,
  divisionId: string,
  settings: unknown,
  providerOf: () => Promise<ConsentProvider>,
): Promise<{ authorizationUrl: string }> {
  await connectableDivision(ctx, actor, divisionId);
  const provider = await providerOf();
  await takeSlotsOrRefuse(ctx, [
    {
      bucket: 'connector-consent:user',
      key: actor.userId,
      max: CONSENTS_PER_WINDOW,
      windowSeconds: CONSENT_WINDOW_SECONDS,
    },
  ]);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = new SecretBox(ctx.config.secrets.encryptionKey).seal(
    JSON.stringify({
      userId: actor.userId,
      divisionId,
      codeVerifier,
      expiresAt: Date.now() + CONSENT_MINUTES * 60_000,
      settings,
    }),
  );
  const url = client.buildAuthorizationUrl(provider.config, {
    redirect_uri: provider.redirectUri,
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    ...provider.params,
  });
  return { authorizationUrl: url.toString() };
}

/** The sealed state, if it is this server's, unexpired and the actor's; else CONNECTOR_CONSENT_INVALID. */
function openConsentState<S extends z.ZodType>(ctx: AppContext, actor: Actor, state: string, settings: S) {
  try {
    const parsed = sealedState.parse(JSON.parse(new SecretBox(ctx.config.secrets.encryptionKey).open(state)));
    if (parsed.userId === actor.userId && parsed.expiresAt >= Date.now())
      return { ...parsed, settings: settings.parse(parsed.settings) as z.output<S> };
  } catch {
    // Not sealed by this server, or not in this form: refused as a foreign or expired one is.
  }
  throw new AppError('CONNECTOR_CONSENT_INVALID');
}

/**
 * Redeems the code the provider sent the browser back with (its PKCE verifier from the state): a refused code is
 * CONNECTOR_CONSENT_FAILED, an unreachable provider CONNECTOR_UNREACHABLE.
 */
async function redeemCode(
  ctx: AppContext,
  actor: Actor,
  config: client.Configuration,
  redirectUri: string,
  body: CompleteInput,
  codeVerifier: string,
  kind: ConnectorKind,
): Promise<OAuthTokens> {
  const callback = new URL(redirectUri);
  callback.searchParams.set('code', body.code);
  callback.searchParams.set('state', body.state);
  try {
    return await redeemConsent(config, callback, { codeVerifier, state: body.state });
  } catch (error) {
    if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
      ctx.log.warn({ err: error }, 'the identity provider refused a consent code');
      throw new AppError('CONNECTOR_CONSENT_FAILED');
    }
    throw unreachable(sourceFailure(error), actor.language, kind);
  }
}

/**
 * The first half of ending a consent: the sealed state opened (CONNECTOR_CONSENT_INVALID unless it is this server's,
 * unexpired and the actor's), the division still the actor's to connect, and the code redeemed with the PKCE
 * verifier. What the provider then finds is the kind's to look up.
 */
export async function finishConsent<S extends z.ZodType, P extends ConsentProvider>(
  ctx: AppContext,
  actor: Actor,
  body: CompleteInput,
  kind: ConnectorKind,
  settingsSchema: S,
  providerOf: () => Promise<P>,
) {
  const consent = openConsentState(ctx, actor, body.state, settingsSchema);
  const division = await connectableDivision(ctx, actor, consent.divisionId);
  const provider = await providerOf();
  const tokens = await redeemCode(
    ctx,
    actor,
    provider.config,
    provider.redirectUri,
    body,
    consent.codeVerifier,
    kind,
  );
  return { settings: consent.settings, division, provider, tokens };
}

/** What a consent found at the provider, to be stored with the settings the data manager chose. */
interface Consented {
  kind: ConnectorKind;
  settings: { name: string; fileTypes: string[]; intervalMinutes: number };
  url: string;
  account: string;
  refreshToken: string;
  folder: string;
  remoteFolderId: string;
}

/** Stores a consented connector, its refresh token sealed, and queues its first sync. */
export async function storeConsentedConnector(
  ctx: AppContext,
  actor: Actor,
  division: Awaited<ReturnType<typeof connectableDivision>>,
  found: Consented,
): Promise<Connector> {
  const [row] = await ctx.db
    .insert(connectors)
    .values({
      companyId: division.companyId,
      divisionId: division.id,
      ownerId: actor.userId,
      kind: found.kind,
      name: found.settings.name,
      url: found.url,
      userName: found.account.slice(0, 254),
      secretSealed: new SecretBox(ctx.config.secrets.encryptionKey).seal(found.refreshToken),
      folder: found.folder,
      remoteFolderId: found.remoteFolderId,
      fileTypes: [...new Set(found.settings.fileTypes)],
      intervalMinutes: found.settings.intervalMinutes,
    })
    .returning();
  await requestSync(ctx, row!.id);
  return getConnector(ctx, actor, row!.id);
}
