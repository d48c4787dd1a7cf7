import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import {
  type ProviderAccount,
  startOidcProvider,
  type TestOidcProvider,
} from '../../../test/support/oidc-provider.ts';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { activityLog, signInProviders } from '../../db/schema/index.ts';

let t: TestServer;
let google: TestOidcProvider;
const ids = { google: '', oidc: '' };
let n = 0;

beforeAll(async () => {
  t = await startTestServer();
  google = await startOidcProvider({
    redirectUri: `${t.server.ctx.config.PUBLIC_URL}/api/v1/auth/oidc/callback`,
    style: 'google',
  });
  const admin = await signedInAdmin(t);
  for (const key of ['google', 'oidc'] as const) {
    const res = await admin.post('/admin/sign-in-providers', {
      kind: 'oidc',
      name: key === 'google' ? 'Google' : 'Firmen-Login',
      issuer: google.issuer,
      clientId: google.clientId,
      clientSecret: google.clientSecret,
      allowedDomains: [],
      areas: ['user'],
      enabled: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids[key] = res.body.id;
  }
  // Saving a Google provider fixes Google's own issuer, which cannot be reached from here: the test provider stands
  // in for it, as a Google provider.
  await t.server.ctx.db
    .update(signInProviders)
    .set({ kind: 'google' })
    .where(eq(signInProviders.id, ids.google));
}, 60_000);

afterAll(async () => {
  await t?.close();
  await google?.close();
});

const account = (): ProviderAccount => {
  n++;
  return {
    sub: `button-${n}-${Date.now()}`,
    email: `button${n}-${Date.now()}@firma.example`,
    email_verified: true,
  };
};

/** The sign-in page rendering Google's button: the client id and nonce it initialises the script with. */
async function openButton(client: ApiClient, query = 'area=user') {
  const res = await client.get(`/auth/oidc/${ids.google}/google-button?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.clientId).toBe(google.clientId);
  return res.body.nonce as string;
}

/** The page handing Google's ID token to the product; answers where the browser goes. */
async function handOver(client: ApiClient, credential: string): Promise<URL> {
  const res = await client.post('/auth/oidc/credential', { credential });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new URL(res.body.location, 'http://product.test');
}

describe("Google's own sign-in button", () => {
  it('signs in with the ID token the button hands over, once, and goes on to the return path', async () => {
    const client = t.client();
    const who = account();
    const nonce = await openButton(client, 'area=user&to=%2Fchat');
    const credential = await google.credential(who, { nonce });
    const landing = await handOver(client, credential);
    expect(landing.pathname).toBe('/login');
    expect(landing.searchParams.get('oidc')).toBe('signedIn');
    expect(landing.searchParams.get('to')).toBe('/chat');
    const me = await client.get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.userData).toMatchObject({ email: who.email, kind: 'DataManager' });

    // The flow is spent: the same token again signs nobody in.
    const replay = t.client();
    replay.cookies.set('ww_oidc', client.cookies.get('ww_oidc') ?? 'spent');
    expect((await handOver(replay, credential)).searchParams.get('oidcError')).toBe('OIDC_SIGN_IN_FAILED');
    expect((await replay.get('/auth/me')).status).toBe(401);

    await t.server.ctx.activity.flush();
    const entries = await t.server.ctx.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.actorEmail, who.email!));
    expect(entries.map((e) => e.action)).toContain('oidcCredential');
  });

  it("accepts Google's issuer written without its scheme, as Google's tokens may carry it", async () => {
    const client = t.client();
    const nonce = await openButton(client);
    const credential = await google.credential(account(), { nonce, issuer: new URL(google.issuer).host });
    expect((await handOver(client, credential)).searchParams.get('oidc')).toBe('signedIn');
  });

  it('refuses a token with another nonce, for another client, signed with a foreign key, or without the flow', async () => {
    const refusals: [string, (nonce: string) => Promise<string>][] = [
      ['another nonce', () => google.credential(account(), { nonce: 'not-the-flows-nonce' })],
      ['another client', (nonce) => google.credential(account(), { nonce, audience: 'someone-else' })],
      ['a foreign key', (nonce) => google.credential(account(), { nonce, stranger: true })],
      ['another issuer', (nonce) => google.credential(account(), { nonce, issuer: 'https://evil.example' })],
    ];
    for (const [why, make] of refusals) {
      const client = t.client();
      const credential = await make(await openButton(client));
      const landing = await handOver(client, credential);
      expect(landing.searchParams.get('oidcError'), why).toBe('OIDC_SIGN_IN_FAILED');
      expect((await client.get('/auth/me')).status, why).toBe(401);
    }
    // A token whose flow this browser never opened.
    const other = t.client();
    const nonce = await openButton(other);
    const stranger = t.client();
    const landing = await handOver(stranger, await google.credential(account(), { nonce }));
    expect(landing.searchParams.get('oidcError')).toBe('OIDC_SIGN_IN_FAILED');
    expect((await stranger.get('/auth/me')).status).toBe(401);
  });

  it('opens no button flow for a provider that is not Google, or on a page that does not offer it', async () => {
    const client = t.client();
    for (const path of [
      `/auth/oidc/${ids.oidc}/google-button?area=user`,
      `/auth/oidc/${ids.google}/google-button?area=admin`,
    ]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('OIDC_PROVIDER_UNAVAILABLE');
    }
    expect((await client.post('/auth/oidc/credential', { credential: '' })).status).toBe(422);
  });
});
