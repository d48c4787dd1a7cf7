import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { createUser } from '../../../test/support/factories.ts';
import {
  type ProviderAccount,
  startOidcProvider,
  type TestOidcProvider,
} from '../../../test/support/oidc-provider.ts';
import { authenticatorSecret, passSecondFactor, signIn } from '../../../test/support/second-factor.ts';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { activityLog, signInProviders, userIdentities, users } from '../../db/schema/index.ts';

let t: TestServer;
let google: TestOidcProvider;
let entra: TestOidcProvider;
let admin: ApiClient;
const ids: Record<'google' | 'entra', string> = { google: '', entra: '' };
let n = 0;

beforeAll(async () => {
  t = await startTestServer();
  const redirectUri = `${t.server.ctx.config.PUBLIC_URL}/api/v1/auth/oidc/callback`;
  google = await startOidcProvider({ redirectUri, style: 'google' });
  entra = await startOidcProvider({ redirectUri, style: 'entra' });
  admin = await signedInAdmin(t);
  for (const [key, provider, areas] of [
    ['google', google, ['user', 'employee', 'admin']],
    ['entra', entra, ['user', 'employee']],
  ] as const) {
    const res = await admin.post('/admin/sign-in-providers', {
      kind: 'oidc',
      name: key === 'google' ? 'Google-like' : 'Entra-like',
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      allowedDomains: [],
      areas,
      enabled: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids[key] = res.body.id;
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
  await google?.close();
  await entra?.close();
});

const account = (overrides: Partial<ProviderAccount> = {}): ProviderAccount => {
  n++;
  return {
    sub: `subject-${n}-${Date.now()}`,
    email: `oidc${n}-${Date.now()}@firma.example`,
    email_verified: true,
    given_name: 'Olga',
    family_name: 'Idp',
    ...overrides,
  };
};

/** The landing of a completed sign-in: the area's sign-in page, which loads the signed-in user and goes on. */
function expectSignedIn(landing: URL, loginPath = '/login') {
  expect(landing.pathname).toBe(loginPath);
  expect(landing.searchParams.get('oidc')).toBe('signedIn');
}

/** Starts a sign-in on the product: the redirect to the provider and its flow cookie. */
async function start(client: ApiClient, key: 'google' | 'entra', query = 'area=user') {
  const res = await client.request('GET', `/auth/oidc/${ids[key]}/start?${query}`, undefined, {
    redirect: 'manual',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(302);
  return res.headers.get('location')!;
}

/** The provider's redirect back, sent by the browser to the product. */
async function callback(client: ApiClient, url: URL) {
  const res = await client.request('GET', `/auth/oidc/callback${url.search}`, undefined, {
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!, 'http://product.test');
}

/** A whole sign-in through a provider as `who`; answers where the product sends the browser at the end. */
async function signInWith(
  client: ApiClient,
  key: 'google' | 'entra',
  who: ProviderAccount,
  query = 'area=user',
) {
  const provider = key === 'google' ? google : entra;
  provider.signInAs(who);
  return callback(client, await provider.authorize(await start(client, key, query)));
}

describe('sign-in through an OpenID Connect provider', () => {
  it('sends the browser to the provider with the code flow, PKCE S256, state, nonce, consent and the scopes', async () => {
    const location = new URL(await start(t.client(), 'google'));
    expect(location.origin).toBe(google.issuer);
    const p = location.searchParams;
    expect(p.get('response_type')).toBe('code');
    expect(p.get('code_challenge_method')).toBe('S256');
    expect(p.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(p.get('state')).toBeTruthy();
    expect(p.get('nonce')).toBeTruthy();
    expect(p.get('prompt')).toBe('consent');
    expect(p.get('scope')).toBe('openid email profile');
  });

  it('creates a company and its data manager on the first sign-in of a verified address, when sign-up is open', async () => {
    const client = t.client();
    const who = account();
    const landing = await signInWith(client, 'google', who);
    expectSignedIn(landing);
    const me = await client.get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.userData).toMatchObject({ email: who.email, kind: 'DataManager', emailVerified: true });
    expect(me.body.userData.companyId).toBeTruthy();
    // Signed in again by (issuer, subject), even with another address at the provider.
    const again = t.client();
    await signInWith(again, 'google', { ...who, email: `changed-${who.email}` });
    expect((await again.get('/auth/me')).body.userData.id).toBe(me.body.userData.id);
  });

  it('answers "no account" for an unknown address while self sign-up is off', async () => {
    await admin.put('/admin/system-settings/sign-up', { signupEnabled: false, botProtection: false });
    try {
      const landing = await signInWith(t.client(), 'google', account());
      expect(landing.pathname).toBe('/login');
      expect(landing.searchParams.get('oidcError')).toBe('OIDC_NO_ACCOUNT');
    } finally {
      await admin.put('/admin/system-settings/sign-up', { signupEnabled: true, botProtection: true });
    }
  });

  it('creates nobody for an address the provider has not verified (Entra ID sends no email_verified)', async () => {
    const who = account();
    const landing = await signInWith(t.client(), 'entra', who);
    expect(landing.searchParams.get('oidcError')).toBe('OIDC_NO_ACCOUNT');
    const [found] = await t.server.ctx.db.select().from(users).where(eq(users.email, who.email!));
    expect(found).toBeUndefined();
  });

  it('creates no employee or staff member: the employee sign-in of an unknown address has no account', async () => {
    const landing = await signInWith(t.client(), 'google', account(), 'area=employee');
    expect(landing.pathname).toBe('/employee/login');
    expect(landing.searchParams.get('oidcError')).toBe('OIDC_NO_ACCOUNT');
  });
});

describe('linking by e-mail', () => {
  it('links a verified account to a provider that verified the same address', async () => {
    const { user } = await createUser(t, 'Employee');
    const client = t.client();
    const landing = await signInWith(client, 'google', account({ email: user.email }), 'area=employee');
    expectSignedIn(landing, '/employee/login');
    expect((await client.get('/auth/me')).body.userData.id).toBe(user.id);
    const linked = await t.server.ctx.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.userId, user.id));
    expect(linked).toHaveLength(1);
  });

  it('does not link when the provider has not verified the address (Entra ID): the password first', async () => {
    const { user } = await createUser(t, 'DataManager');
    const client = t.client();
    const landing = await signInWith(client, 'entra', account({ email: user.email }));
    expect(landing.searchParams.get('oidcError')).toBe('OIDC_LINK_REQUIRED');
    expect((await client.get('/auth/me')).status).toBe(401);
  });

  it('does not link to a local account whose address is unverified (a pre-registered account)', async () => {
    const { user } = await createUser(t, 'DataManager');
    await t.server.ctx.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, user.id));
    const client = t.client();
    const landing = await signInWith(client, 'google', account({ email: user.email }));
    expect(landing.searchParams.get('oidcError')).toBe('OIDC_LINK_REQUIRED');
    expect((await client.get('/auth/me')).status).toBe(401);
    expect(
      await t.server.ctx.db.select().from(userIdentities).where(eq(userIdentities.userId, user.id)),
    ).toEqual([]);
  });

  it('links explicitly after a password sign-in, also an unverified provider address, then signs in with it', async () => {
    const { user, password } = await createUser(t, 'DataManager');
    const client = t.client();
    await signIn(t, client, { email: user.email, password, area: 'user' });
    const who = account({ email: `other-${user.email}` });
    entra.signInAs(who);
    const link = await client.post(`/account/identities/${ids.entra}/link`, {
      to: '/account-settings/security',
    });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const landing = await callback(client, await entra.authorize(link.body.url));
    expect(landing.pathname).toBe('/account-settings/security');
    expect(landing.searchParams.get('linked')).toBe('1');
    const listed = await client.get('/account/identities');
    expect(listed.body.items).toEqual([
      expect.objectContaining({ providerName: 'Entra-like', email: who.email }),
    ]);

    const fresh = t.client();
    expectSignedIn(await signInWith(fresh, 'entra', who));
    expect((await fresh.get('/auth/me')).body.userData.id).toBe(user.id);

    // Another user cannot link the same provider account.
    const other = await createUser(t, 'DataManager');
    const otherClient = t.client();
    await signIn(t, otherClient, { email: other.user.email, password: other.password, area: 'user' });
    entra.signInAs(who);
    const second = await otherClient.post(`/account/identities/${ids.entra}/link`, {
      to: '/account-settings/security',
    });
    const refused = await callback(otherClient, await entra.authorize(second.body.url));
    expect(refused.searchParams.get('oidcError')).toBe('OIDC_IDENTITY_TAKEN');

    // Unlinked, the provider account signs in no more.
    const unlink = await client.delete(`/account/identities/${listed.body.items[0].id}`);
    expect(unlink.status).toBe(200);
    expect((await signInWith(t.client(), 'entra', who)).searchParams.get('oidcError')).toBe(
      'OIDC_NO_ACCOUNT',
    );
    expect(await flushedActions(user.email)).toEqual(
      expect.arrayContaining(['startIdentityLink', 'oidcCallback', 'unlinkIdentity']),
    );
  });

  it('keeps the last way to sign in of an account without a password', async () => {
    const client = t.client();
    await signInWith(client, 'google', account());
    const listed = await client.get('/account/identities');
    const res = await client.delete(`/account/identities/${listed.body.items[0].id}`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('IDENTITY_LAST_SIGN_IN');
  });
});

async function flushedActions(email: string) {
  await t.server.ctx.activity.flush();
  const rows = await t.server.ctx.db.select().from(activityLog).where(eq(activityLog.actorEmail, email));
  return rows.map((r) => r.action);
}

describe('what the callback refuses', () => {
  it('refuses a wrong state', async () => {
    const client = t.client();
    google.signInAs(account());
    const back = await google.authorize(await start(client, 'google'));
    back.searchParams.set('state', 'forged-state');
    const landing = await callback(client, back);
    expect(landing.searchParams.get('oidcError')).toBe('OIDC_SIGN_IN_FAILED');
    expect((await client.get('/auth/me')).status).toBe(401);
  });

  it('refuses a replayed callback and a replayed code under a new flow', async () => {
    const client = t.client();
    const who = account();
    google.signInAs(who);
    const flowCookie = () => client.cookies.get('ww_oidc');
    const back = await google.authorize(await start(client, 'google'));
    const cookie = flowCookie()!;
    expectSignedIn(await callback(client, back));
    // The same answer again, with the same (single-use) flow cookie.
    const replay = t.client();
    replay.cookies.set('ww_oidc', cookie);
    expect((await callback(replay, back)).searchParams.get('oidcError')).toBe('OIDC_SIGN_IN_FAILED');
    // The spent code with the state of a fresh flow: the provider refuses it (and the PKCE verifier differs).
    const fresh = t.client();
    const next = new URL(await start(fresh, 'google'));
    back.searchParams.set('state', next.searchParams.get('state')!);
    expect((await callback(fresh, back)).searchParams.get('oidcError')).toBe('OIDC_SIGN_IN_FAILED');
    expect((await fresh.get('/auth/me')).status).toBe(401);
  });

  it('refuses an ID token with another nonce than the flow’s', async () => {
    const client = t.client();
    google.signInAs(account());
    const authorization = new URL(await start(client, 'google'));
    authorization.searchParams.set('nonce', 'a-nonce-of-another-flow');
    const landing = await callback(client, await google.authorize(authorization.href));
    expect(landing.searchParams.get('oidcError')).toBe('OIDC_SIGN_IN_FAILED');
    expect((await client.get('/auth/me')).status).toBe(401);
  });

  it('returns only to same-site relative paths', async () => {
    const who = account();
    const back = await signInWith(t.client(), 'google', who, 'area=user&to=%2Ffiles%3Fq%3D1');
    expectSignedIn(back);
    expect(back.searchParams.get('to')).toBe('/files?q=1');
    for (const to of [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const landing = await signInWith(t.client(), 'google', who, `area=user&to=${encodeURIComponent(to)}`);
      expect(landing.href).toBe('http://product.test/login?oidc=signedIn');
    }
  });

  it('offers nothing of a disabled provider, and refuses its flows already under way', async () => {
    const client = t.client();
    google.signInAs(account());
    const back = await google.authorize(await start(client, 'google'));
    await t.server.ctx.db
      .update(signInProviders)
      .set({ enabled: false })
      .where(eq(signInProviders.id, ids.google));
    try {
      expect((await callback(client, back)).searchParams.get('oidcError')).toBe('OIDC_PROVIDER_UNAVAILABLE');
      const refused = await t.client().get(`/auth/oidc/${ids.google}/start?area=user`);
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('OIDC_PROVIDER_UNAVAILABLE');
      const offered = await t.client().get('/auth/oidc/providers?area=user');
      expect(offered.body.items.map((p: { id: string }) => p.id)).toEqual([ids.entra]);
    } finally {
      await t.server.ctx.db
        .update(signInProviders)
        .set({ enabled: true })
        .where(eq(signInProviders.id, ids.google));
    }
  });

  it('refuses a provider on an area that does not offer it', async () => {
    const res = await t.client().get(`/auth/oidc/${ids.entra}/start?area=admin`);
    expect(res.status).toBe(404);
  });
});

describe('allowed domains', () => {
  it('signs in only addresses of the allowed domains (and, for Google, its hd claim)', async () => {
    const res = await admin.post('/admin/sign-in-providers', {
      kind: 'oidc',
      name: 'Nur Firma',
      issuer: google.issuer,
      clientId: google.clientId,
      clientSecret: google.clientSecret,
      allowedDomains: ['firma.example'],
      areas: ['user'],
      enabled: true,
    });
    const key = ids.google;
    ids.google = res.body.id;
    try {
      const outside = await signInWith(
        t.client(),
        'google',
        account({ email: `x${Date.now()}@andere.example` }),
      );
      expect(outside.searchParams.get('oidcError')).toBe('OIDC_DOMAIN_NOT_ALLOWED');
      expectSignedIn(await signInWith(t.client(), 'google', account({ hd: 'firma.example' })));
    } finally {
      ids.google = key;
      await admin.delete(`/admin/sign-in-providers/${res.body.id}`);
    }
  });
});

describe('the second factor after the provider', () => {
  it('opens no session for an operator: the callback leads to the second step', async () => {
    const { user } = await createUser(t, 'Administrator');
    const client = t.client();
    const landing = await signInWith(
      client,
      'google',
      account({ email: user.email }),
      'area=admin&to=%2Fadmin%2Froles',
    );
    expect(landing.pathname).toBe('/admin/auth/login');
    expect(landing.searchParams.get('secondFactor')).toBe('enrol');
    expect(landing.searchParams.get('to')).toBe('/admin/roles');
    expect((await client.get('/auth/me')).status).toBe(401);
    const done = await passSecondFactor(t, client, user.email, {
      status: 200,
      headers: new Headers(),
      body: { secondFactor: 'enrol' },
    });
    expect(done.status).toBe(200);
    expect(await authenticatorSecret(t, user.email)).toBeTruthy();
    expect((await client.get('/auth/me')).body.userData.id).toBe(user.id);
  });
});

describe('the operator’s settings', () => {
  it('keeps the client secret sealed at rest and never answers it', async () => {
    const [row] = await t.server.ctx.db
      .select()
      .from(signInProviders)
      .where(eq(signInProviders.id, ids.google));
    expect(row!.clientSecretSealed).toMatch(/^v1\./);
    expect(row!.clientSecretSealed).not.toContain(google.clientSecret);
    const listed = await admin.get('/admin/sign-in-providers');
    expect(JSON.stringify(listed.body)).not.toContain(google.clientSecret);
    expect(listed.body.callbackUrl).toBe(`${t.server.ctx.config.PUBLIC_URL}/api/v1/auth/oidc/callback`);
    expect(listed.body.items.find((p: { id: string }) => p.id === ids.google).clientSecretSet).toBe(true);
  });

  it('refuses an issuer whose discovery document cannot be read', async () => {
    const res = await admin.post('/admin/sign-in-providers', {
      kind: 'oidc',
      name: 'Falsch',
      issuer: `${google.issuer}/nothing-here`,
      clientId: 'x',
      allowedDomains: [],
      areas: ['user'],
      enabled: true,
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('OIDC_DISCOVERY_FAILED');
  });
});
