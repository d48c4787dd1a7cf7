import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider from 'oidc-provider';

/** The person who signs in at the test provider next, with the claims it vouches for. */
export interface ProviderAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  /** Google's Workspace domain claim. */
  hd?: string;
  given_name?: string;
  family_name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in on the next authorization. */
  signInAs(account: ProviderAccount): void;
  /**
   * What the browser does at the provider: opens the authorization address, signs in as the chosen account and
   * consents; answers the redirect back to the product (its callback with code, state and iss).
   */
  authorize(authorizationUrl: string): Promise<URL>;
  /**
   * What Google's button script hands the page after the person chose an account: an ID token for the client with
   * the nonce the page gave the script, signed with the provider's key (or, `stranger`, a key it never published).
   */
  credential(
    account: ProviderAccount,
    options: { nonce: string; audience?: string; stranger?: boolean; issuer?: string },
  ): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on a loopback port, for one client whose redirect URI is the
 * product's callback. Its login and consent page signs in the chosen account at once. `style: 'google'` vouches for
 * `email_verified` (and `hd` when given), `style: 'entra'` never sends `email_verified`, as Entra ID does.
 */
export async function startOidcProvider(options: {
  redirectUri: string;
  style: 'google' | 'entra';
}): Promise<TestOidcProvider> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const clientId = `client-${options.style}`;
  const clientSecret = `secret-${options.style}-0123456789abcdef`;
  const accounts = new Map<string, ProviderAccount>();
  let next: ProviderAccount | null = null;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test' }] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified', 'hd'],
      profile: ['given_name', 'family_name'],
    },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      const { email_verified, ...rest } = account;
      return {
        accountId: sub,
        claims: async () => (options.style === 'google' ? { ...rest, email_verified } : rest),
      };
    },
  });
  const callback = provider.callback();
  http.on('request', async (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (!next) throw new Error('no account chosen: call signInAs first');
      accounts.set(next.sub, next);
      const grant = new provider.Grant({ accountId: next.sub, clientId: String(details.params.client_id) });
      grant.addOIDCScope('openid email profile');
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId: next.sub }, consent: { grantId } });
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });

  /** The browser at the provider: follows its redirects with its cookies until it is sent back to the product. */
  async function authorize(authorizationUrl: string): Promise<URL> {
    const jar = new Map<string, string>();
    let url = new URL(authorizationUrl);
    for (let hop = 0; hop < 10; hop++) {
      if (url.href.startsWith(options.redirectUri)) return url;
      const res = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const cookie of res.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`the provider answered ${res.status}: ${await res.text()}`);
      url = new URL(location, url);
    }
    throw new Error('too many redirects at the provider');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (account) => {
      next = account;
    },
    authorize,
    credential: async (account, token) => {
      const key = token.stranger ? (await generateKeyPair('RS256')).privateKey : privateKey;
      const { email_verified, ...rest } = account;
      return new SignJWT({
        ...rest,
        ...(options.style === 'google' ? { email_verified } : {}),
        nonce: token.nonce,
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'test' })
        .setIssuer(token.issuer ?? issuer)
        .setAudience(token.audience ?? clientId)
        .setSubject(account.sub)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key);
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
