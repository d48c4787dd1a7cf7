import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';

/** What the flow needs of a provider to talk to it. */
export interface ProviderEndpoint {
  id: string;
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  /** Changes whenever the provider is saved, so that a cached discovery is not used after an edit. */
  version: string;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;
const SCOPE = 'openid email profile';

/**
 * The providers' discovery documents, read once per provider version. Plain http is accepted only on the loopback
 * (a provider on the same machine, as in the tests); everywhere else the issuer must be https.
 */
export class OidcClients {
  readonly #configs = new Map<string, Promise<client.Configuration>>();

  configuration(provider: ProviderEndpoint, log: AppContext['log']): Promise<client.Configuration> {
    const key = `${provider.id}:${provider.version}`;
    let config = this.#configs.get(key);
    if (!config) {
      config = discover(provider, log);
      this.#configs.set(key, config);
      // A failed discovery is tried again on the next use.
      config.catch(() => this.#configs.delete(key));
    }
    return config;
  }
}

async function discover(provider: ProviderEndpoint, log: AppContext['log']): Promise<client.Configuration> {
  const url = new URL(provider.issuer);
  const insecure = url.protocol === 'http:';
  if (insecure && !LOOPBACK.test(url.hostname)) throw new AppError('OIDC_DISCOVERY_FAILED');
  try {
    return await client.discovery(
      url,
      provider.clientId,
      provider.clientSecret ?? undefined,
      provider.clientSecret ? client.ClientSecretPost(provider.clientSecret) : client.None(),
      insecure ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
    );
  } catch (error) {
    log.warn({ err: error, issuer: provider.issuer }, 'OpenID Connect discovery failed');
    throw new AppError('OIDC_DISCOVERY_FAILED');
  }
}

/** The secrets of one authorization request, kept server-side until its callback. */
export interface FlowSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export function newFlowSecrets(): FlowSecrets {
  return {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  };
}

/** The provider's authorization address: code flow, PKCE S256, consent always asked. */
export async function authorizationUrl(
  config: client.Configuration,
  redirectUri: string,
  secrets: FlowSecrets,
): Promise<string> {
  return client
    .buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(secrets.codeVerifier),
      code_challenge_method: 'S256',
      state: secrets.state,
      nonce: secrets.nonce,
      prompt: 'consent',
    })
    .toString();
}

/** The ID token's claims the product reads. */
export interface IdentityClaims {
  issuer: string;
  subject: string;
  email: string | null;
  /** Only a literal `true` counts: a provider that does not say (Entra ID) has not verified the address. */
  emailVerified: boolean;
  hostedDomain: string | null;
  givenName: string | null;
  familyName: string | null;
}

/**
 * Redeems the code of a callback (`callbackUrl`: the redirect URI with the provider's query) with the PKCE verifier;
 * openid-client checks the state, and the ID token's signature, issuer, audience, expiry and nonce.
 */
export async function redeemCode(
  config: client.Configuration,
  callbackUrl: URL,
  secrets: FlowSecrets,
): Promise<IdentityClaims> {
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: secrets.codeVerifier,
    expectedState: secrets.state,
    expectedNonce: secrets.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('no ID token');
  return identityOf(claims);
}

/** The claims the product reads, from a checked ID token. */
function identityOf(claims: { iss: string; sub: string; [claim: string]: unknown }): IdentityClaims {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: text(claims.email)?.toLowerCase() ?? null,
    emailVerified: claims.email_verified === true,
    hostedDomain: text(claims.hd)?.toLowerCase() ?? null,
    givenName: text(claims.given_name),
    familyName: text(claims.family_name),
  };
}

/** The providers' signing keys by JWKS address; jose caches them and fetches again for an unknown key id. */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/**
 * Checks an ID token the provider's own script handed to the browser (Google's button): signed by a key of the
 * provider's JWKS, issued by the provider (Google writes its issuer with or without the scheme), for this client, not
 * expired, and carrying the nonce of the flow that rendered the button.
 */
export async function verifyCredential(
  config: client.Configuration,
  credential: string,
  expectedNonce: string,
): Promise<IdentityClaims> {
  const { issuer, jwks_uri: jwksUri } = config.serverMetadata();
  if (!jwksUri) throw new Error('the provider names no JWKS');
  let keys = keySets.get(jwksUri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 10_000 });
    keySets.set(jwksUri, keys);
  }
  const { payload } = await jwtVerify(credential, keys, {
    issuer: [issuer, new URL(issuer).host],
    audience: config.clientMetadata().client_id,
    requiredClaims: ['sub', 'exp', 'iat', 'nonce'],
  });
  if (payload.nonce !== expectedNonce) throw new Error('the ID token carries another nonce');
  return identityOf({ ...payload, iss: issuer, sub: String(payload.sub) });
}
