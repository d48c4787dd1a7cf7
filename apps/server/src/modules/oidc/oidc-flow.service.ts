import {
  areaOfPath,
  type ErrorCode,
  type LoginArea,
  type OidcArea,
  returnPathField,
} from '@werkwissen/shared';
import type { Configuration } from 'openid-client';
import type { AppContext } from '../../app-context.ts';
import { type Actor, loadUserActor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { refuseWhileImpersonating } from '../../core/impersonation-guard.ts';
import { randomToken, sha256 } from '../../core/token-crypto.ts';
import { userByEmail } from '../../core/users.queries.ts';
import { createCompanyWithDataManager } from '../auth/registration.service.ts';
import { type ClientInfo, type LoginOutcome, signInIdentifiedUser } from '../auth/session.service.ts';
import { findIdentity, saveIdentity } from './identities.service.ts';
import {
  authorizationUrl,
  type FlowSecrets,
  type IdentityClaims,
  newFlowSecrets,
  redeemCode,
  verifyCredential,
} from './oidc-client.ts';
import { insertFlow, spendFlow } from './oidc-flows.queries.ts';
import {
  callbackUrl,
  enabledProvider,
  oidcClients,
  type ResolvedProvider,
} from './sign-in-providers.service.ts';

/** How long the browser may stay at the provider. */
export const FLOW_SECONDS = 10 * 60;

/** A return path the callback may send the browser to: same-site and relative, else none. */
export function safeReturnPath(to: string | undefined | null): string | null {
  return to && returnPathField.safeParse(to).success ? to : null;
}

/** Stores a flow's secrets under the hash of a new cookie token. */
async function saveFlow(
  ctx: AppContext,
  provider: ResolvedProvider,
  flow: { area: string; returnTo: string | null; linkUserId: string | null },
) {
  const secrets = newFlowSecrets();
  const token = randomToken();
  await insertFlow(ctx.db, {
    tokenHash: sha256(token),
    providerId: provider.id,
    ...secrets,
    ...flow,
    expiresAt: new Date(Date.now() + FLOW_SECONDS * 1000),
  });
  return { flowToken: token, secrets };
}

async function openFlow(
  ctx: AppContext,
  provider: ResolvedProvider,
  flow: { area: string; returnTo: string | null; linkUserId: string | null },
) {
  const config = await oidcClients(ctx).configuration(provider, ctx.log);
  const { flowToken, secrets } = await saveFlow(ctx, provider, flow);
  return { flowToken, url: await authorizationUrl(config, callbackUrl(ctx), secrets) };
}

/** A sign-in through a provider offered on the area's sign-in page. */
export async function startSignIn(
  ctx: AppContext,
  providerId: string,
  input: { area: OidcArea; to?: string | undefined },
) {
  const provider = await enabledProvider(ctx, providerId);
  if (!provider?.areas.includes(input.area)) throw new AppError('OIDC_PROVIDER_UNAVAILABLE');
  return openFlow(ctx, provider, { area: input.area, returnTo: safeReturnPath(input.to), linkUserId: null });
}

/**
 * Google's own button on a sign-in page: a flow like `startSignIn`'s whose nonce Google's script writes into the ID
 * token it hands back (`finishFlow` with `credentialCheck`). Only Google providers; the others redirect.
 */
export async function startGoogleButton(
  ctx: AppContext,
  providerId: string,
  input: { area: OidcArea; to?: string | undefined },
) {
  const provider = await enabledProvider(ctx, providerId);
  if (provider?.kind !== 'google' || !provider.areas.includes(input.area))
    throw new AppError('OIDC_PROVIDER_UNAVAILABLE');
  const { flowToken, secrets } = await saveFlow(ctx, provider, {
    area: input.area,
    returnTo: safeReturnPath(input.to),
    linkUserId: null,
  });
  return { flowToken, clientId: provider.clientId, nonce: secrets.nonce };
}

/** Linking a provider account to the signed-in user, who comes back to `to` (their security tab). */
export async function startLink(ctx: AppContext, actor: Actor, providerId: string, to: string) {
  refuseWhileImpersonating(actor);
  const provider = await enabledProvider(ctx, providerId);
  if (!provider) throw new AppError('OIDC_PROVIDER_UNAVAILABLE');
  return openFlow(ctx, provider, { area: areaOfPath(to), returnTo: to, linkUserId: actor.userId });
}

/** Spends the flow of a callback's cookie: unknown, used or expired is none. */
async function claimFlow(ctx: AppContext, token: string | undefined) {
  if (!token) return null;
  return spendFlow(ctx.db, sha256(token));
}

function domainAllowed(provider: ResolvedProvider, claims: IdentityClaims): boolean {
  if (provider.allowedDomains.length === 0) return true;
  const domain = claims.email?.split('@')[1];
  if (!domain || !provider.allowedDomains.includes(domain)) return false;
  // Google names the Workspace domain of the account in `hd`; a private account with such an address has none.
  return (
    provider.kind !== 'google' ||
    (!!claims.hostedDomain && provider.allowedDomains.includes(claims.hostedDomain))
  );
}

/**
 * The user a provider account signs in as: its linked user; else, for an address both the provider and the
 * account have verified, that account (linked now); else a new company and data manager when self sign-up is open
 * (user area, verified address). Anything else must sign in with the password and link.
 */
async function userFor(ctx: AppContext, provider: ResolvedProvider, claims: IdentityClaims, area: string) {
  const linked = await findIdentity(ctx.db, claims);
  if (linked) return { userId: linked.userId, created: false, linkedNow: false };
  const local = claims.email ? await userByEmail(ctx.db, claims.email) : undefined;
  if (local) {
    if (!claims.emailVerified || !local.emailVerifiedAt) throw new AppError('OIDC_LINK_REQUIRED');
    await saveIdentity(ctx.db, local.id, provider.id, claims);
    return { userId: local.id, created: false, linkedNow: true };
  }
  const settings = await ctx.settings.current();
  if (!claims.email || !claims.emailVerified || area !== 'user' || !settings.signUp.signupEnabled)
    throw new AppError('OIDC_NO_ACCOUNT');
  const email = claims.email;
  const userId = await ctx.db.transaction(async (tx) => {
    const created = await createCompanyWithDataManager(tx, settings.plans.trialDays, {
      companyName: null,
      email,
      passwordHash: null,
      firstName: claims.givenName ?? email.split('@')[0]!,
      lastName: claims.familyName ?? '',
      phone: null,
      language: settings.general.defaultLanguage,
      country: null,
      emailVerifiedAt: new Date(),
    });
    await saveIdentity(tx, created.userId, provider.id, claims);
    return created.userId;
  });
  return { userId, created: true, linkedNow: true };
}

export type CallbackResult =
  | { kind: 'signedIn'; outcome: LoginOutcome; created: boolean; linkedNow: boolean }
  | { kind: 'linked'; actor: Actor }
  | { kind: 'failed'; code: ErrorCode; email: string | null };

export interface CallbackAnswer {
  /** Where the flow began (an area's sign-in page, or a security tab when linking), none without a valid cookie. */
  area: LoginArea;
  returnTo: string | null;
  linking: boolean;
  provider: string | null;
  result: CallbackResult;
}

/** How a flow's end proves who signed in: the checked claims of the provider's ID token. */
export type IdentityCheck = (
  config: Configuration,
  flow: FlowSecrets,
  provider: ResolvedProvider,
) => Promise<IdentityClaims>;

/** The redirect back with a code (`query`): redeemed with the PKCE verifier, state and nonce checked. */
export const callbackCheck =
  (ctx: AppContext, query: string): IdentityCheck =>
  (config, flow) =>
    redeemCode(config, new URL(`${callbackUrl(ctx)}?${query}`), flow);

/** An ID token from Google's button script: Google's signature, this client, the flow's nonce. */
export const credentialCheck =
  (credential: string): IdentityCheck =>
  async (config, flow, provider) => {
    if (provider.kind !== 'google') throw new Error('only Google hands out ID tokens to its button');
    return verifyCredential(config, credential, flow.nonce);
  };

/**
 * The end of a flow: spends the flow of the `ww_oidc` cookie, checks the provider's answer (`check`) and signs in or
 * links. Failures are answered as a code for the page, never thrown: the browser must land on a page either way.
 */
export async function finishFlow(
  ctx: AppContext,
  flowToken: string | undefined,
  check: IdentityCheck,
  client: ClientInfo,
): Promise<CallbackAnswer> {
  const flow = await claimFlow(ctx, flowToken);
  const answer = (result: CallbackResult, provider: string | null = null): CallbackAnswer => ({
    area: (flow?.area as LoginArea | undefined) ?? 'user',
    returnTo: flow?.returnTo ?? null,
    linking: !!flow?.linkUserId,
    provider,
    result,
  });
  if (!flow) return answer({ kind: 'failed', code: 'OIDC_SIGN_IN_FAILED', email: null });
  const provider = await enabledProvider(ctx, flow.providerId);
  if (!provider || (!flow.linkUserId && !provider.areas.includes(flow.area as OidcArea)))
    return answer({ kind: 'failed', code: 'OIDC_PROVIDER_UNAVAILABLE', email: null });
  let claims: IdentityClaims;
  try {
    const config = await oidcClients(ctx).configuration(provider, ctx.log);
    claims = await check(config, flow, provider);
  } catch (error) {
    ctx.log.warn({ err: error, provider: provider.id }, 'OpenID Connect callback refused');
    return answer({ kind: 'failed', code: 'OIDC_SIGN_IN_FAILED', email: null }, provider.name);
  }
  try {
    if (!domainAllowed(provider, claims)) throw new AppError('OIDC_DOMAIN_NOT_ALLOWED');
    if (flow.linkUserId) {
      const actor = await loadUserActor(ctx.db, flow.linkUserId, null);
      if (!actor) throw new AppError('SESSION_EXPIRED');
      const owner = await findIdentity(ctx.db, claims);
      if (owner && owner.userId !== actor.userId) throw new AppError('OIDC_IDENTITY_TAKEN');
      await saveIdentity(ctx.db, actor.userId, provider.id, claims);
      return answer({ kind: 'linked', actor }, provider.name);
    }
    const { userId, created, linkedNow } = await userFor(ctx, provider, claims, flow.area);
    const outcome = await signInIdentifiedUser(ctx, userId, flow.area as LoginArea, client);
    return answer({ kind: 'signedIn', outcome, created, linkedNow }, provider.name);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return answer({ kind: 'failed', code: error.code, email: claims.email }, provider.name);
  }
}
