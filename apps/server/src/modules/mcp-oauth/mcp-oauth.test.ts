import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { insertDivision, insertPassage } from '../../../test/support/chat-fixtures.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { MemoryOAuthClient } from '../../../test/support/mcp-oauth-client.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { randomToken, sha256 } from '../../core/token-crypto.ts';
import { activityLog, apiKeys, oauthRecords, rateLimitEvents, users } from '../../db/schema/index.ts';
import { REGISTRATIONS_PER_HOUR } from './oauth.routes.ts';
import { oauthProvider } from './oauth-server.ts';

/**
 * MCP authorization (OAuth 2.1) end to end with the SDK's own client-side OAuth: discovery from the 401, dynamic
 * registration, the code flow with PKCE through the product's sign-in and consent as a signed-in data manager, then
 * tool calls with the token, which sees only that user's company. Tokens of another audience, expired, revoked or of a
 * disabled user are refused with the challenge of RFC 6750 / RFC 9728.
 */
let t: TestServer;
const REDIRECT = 'http://127.0.0.1:9/callback';

const testClient = () => new MemoryOAuthClient('Claude (Test)', REDIRECT);

const mcpUrl = () => new URL(`${t.url}/api/v1/mcp`);

/** What the browser does: follows the provider's redirects with its cookies (the session's and the provider's). */
async function visit(browser: ApiClient, url: string): Promise<Response> {
  const res = await fetch(new URL(url, t.url), {
    redirect: 'manual',
    headers: { cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  for (const cookie of res.headers.getSetCookie()) {
    const pair = cookie.split(';')[0]!;
    const at = pair.indexOf('=');
    browser.cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return res;
}

/** Opens the authorization address in the browser until the consent page; answers its interaction uid. */
async function toConsentPage(browser: ApiClient, authorizationUrl: URL): Promise<string> {
  const start = await visit(browser, authorizationUrl.href);
  expect(start.status).toBe(303);
  const interaction = start.headers.get('location')!;
  expect(interaction).toMatch(/^\/api\/v1\/oauth\/interaction\/[\w-]+$/);
  const page = await visit(browser, interaction);
  expect(page.status).toBe(302);
  expect(page.headers.get('location')).toMatch(/^\/oauth\/consent\/[\w-]+$/);
  return interaction.split('/').pop()!;
}

/** The whole flow as a user: the SDK discovers, registers and redirects; the user consents; the SDK gets tokens. */
async function authorize(browser: ApiClient, client = testClient()) {
  expect(await auth(client, { serverUrl: mcpUrl() })).toBe('REDIRECT');
  const uid = await toConsentPage(browser, client.authorizationUrl!);
  const consent = await browser.get(`/oauth/interaction/${uid}/consent`);
  expect(consent.status).toBe(200);
  const answer = await browser.post(`/oauth/interaction/${uid}/consent`, { allow: true });
  expect(answer.status).toBe(200);
  const back = await visit(browser, answer.body.redirectTo);
  expect(back.status, back.headers.get('location') ?? '').toBe(303);
  expect(back.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?/);
  const callback = new URL(back.headers.get('location')!);
  expect(callback.origin + callback.pathname).toBe(REDIRECT);
  const code = callback.searchParams.get('code')!;
  expect(await auth(client, { serverUrl: mcpUrl(), authorizationCode: code })).toBe('AUTHORIZED');
  return { client, consent: consent.body };
}

async function connect(provider: OAuthClientProvider) {
  const mcp = new Client({ name: 'werkwissen-oauth-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
  return mcp;
}

function dataOf(result: CallToolResult) {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, any>;
}

/** A raw MCP ping with this bearer token. */
const ping = (token: string) =>
  fetch(mcpUrl(), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });

let a: Awaited<ReturnType<typeof signedInAs>>;
let b: Awaited<ReturnType<typeof signedInAs>>;
let divisionA: string;
let passageA: string;
let divisionB: string;

beforeAll(async () => {
  t = await startTestServer({ smtp: false });
  // The address clients reach the server at (the installation's PUBLIC_URL): the issuer and the resource are named
  // by it, and the SDK client checks that the resource it was given is the one it connects to.
  t.server.ctx.config.PUBLIC_URL = t.url;
  a = await signedInAs(t, 'DataManager');
  b = await signedInAs(t, 'DataManager');
  divisionA = (await insertDivision(t, a.companyId!, 'Heizung')).id;
  passageA = (
    await insertPassage(t, {
      companyId: a.companyId!,
      divisionId: divisionA,
      fileName: 'Heizung-A.pdf',
      text: 'Die Vorlauftemperatur der Heizung beträgt 55 Grad Celsius.',
      page: 2,
    })
  ).passageId;
  divisionB = (await insertDivision(t, b.companyId!, 'Sanitär')).id;
  await insertPassage(t, {
    companyId: b.companyId!,
    divisionId: divisionB,
    fileName: 'Sanitaer-B.pdf',
    text: 'Die Vorlauftemperatur im Bad beträgt 40 Grad Celsius.',
    page: 1,
  });
}, 120_000);
afterAll(() => t?.close());

describe('MCP authorization by OAuth 2.1', () => {
  it('answers 401 with the protected resource metadata, which names the authorization server', async () => {
    const res = await fetch(mcpUrl(), { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    const metadataUrl = `${t.server.ctx.config.PUBLIC_URL}/.well-known/oauth-protected-resource/api/v1/mcp`;
    expect(challenge).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp"`);
    const resource = await (await fetch(new URL(new URL(metadataUrl).pathname, t.url))).json();
    const issuer = `${t.server.ctx.config.PUBLIC_URL}/api/v1/oauth`;
    expect(resource).toMatchObject({
      resource: `${t.server.ctx.config.PUBLIC_URL}/api/v1/mcp`,
      authorization_servers: [issuer],
      scopes_supported: ['mcp'],
    });
    const server = await (await fetch(`${t.url}/.well-known/oauth-authorization-server/api/v1/oauth`)).json();
    expect(server).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      revocation_endpoint: `${issuer}/revoke`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
  });

  it('lets a signed-in user connect a client, whose token reaches only their company', async () => {
    const { client, consent } = await authorize(a.client);
    expect(consent).toMatchObject({
      clientName: 'Claude (Test)',
      redirectHost: '127.0.0.1:9',
      email: a.user.email,
      resource: `${t.server.ctx.config.PUBLIC_URL}/api/v1/mcp`,
    });
    expect(client.saved?.token_type.toLowerCase()).toBe('bearer');
    expect(client.saved?.refresh_token).toBeTruthy();
    expect(client.saved?.expires_in).toBe(3600);
    const mcp = await connect(client);
    try {
      const divisions = dataOf(
        (await mcp.callTool({ name: 'list_divisions', arguments: {} })) as CallToolResult,
      );
      expect(divisions.divisions.map((d: { divisionId: string }) => d.divisionId)).toEqual([divisionA]);
      const hits = dataOf(
        (await mcp.callTool({ name: 'search', arguments: { q: 'Vorlauftemperatur' } })) as CallToolResult,
      ).hits;
      expect(hits.map((h: { passageId: string }) => h.passageId)).toEqual([passageA]);
      const other = (await mcp.callTool({
        name: 'search',
        arguments: { q: 'Vorlauftemperatur', divisionId: divisionB },
      })) as CallToolResult;
      expect(other.isError).toBe(true);
    } finally {
      await mcp.close();
    }
    // Issue and every use are in the activity log, as the user of company A.
    await t.server.ctx.activity.flush();
    const entries = await t.server.ctx.db
      .select({ action: activityLog.action, companyId: activityLog.companyId })
      .from(activityLog)
      .where(eq(activityLog.actorUserId, a.user.id));
    const actions = entries.map((e) => e.action);
    expect(actions).toContain('oauth:token');
    expect(actions).toContain('answerOAuthConsent');
    expect(actions).toContain('mcp:search');
    expect(new Set(entries.map((e) => e.companyId))).toEqual(new Set([a.companyId]));
    // The refresh token gives a new access token; the old refresh token is spent.
    const refreshed = testClient();
    refreshed.info = client.info;
    refreshed.saved = { ...client.saved!, access_token: 'verbraucht' };
    expect(await auth(refreshed, { serverUrl: mcpUrl() })).toBe('AUTHORIZED');
    expect(refreshed.saved.access_token).not.toBe(client.saved!.access_token);
    expect((await ping(refreshed.saved.access_token)).status).toBe(200);
  });

  it('refuses a token for another resource, an expired, a revoked one and one of a disabled user', async () => {
    const { client } = await authorize(a.client);
    const token = client.saved!.access_token;
    expect((await ping(token)).status).toBe(200);

    // A token the same server issued for another resource (audience) is not the MCP server's.
    const provider = await oauthProvider(t.server.ctx);
    const registered = await provider.Client.find(String(client.info!.client_id));
    const foreign = new provider.AccessToken({
      accountId: a.user.id,
      client: registered!,
      grantId: 'eine-andere-bewilligung',
      gty: 'authorization_code',
      scope: 'mcp',
      resourceServer: {
        scope: 'mcp',
        scopes: new Set(['mcp']),
        audience: 'https://other.example/mcp',
        accessTokenFormat: 'opaque',
        identifier: () => 'https://other.example/mcp',
      },
    });
    const foreignToken = await foreign.save();
    const refused = await ping(foreignToken);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", resource_metadata="/,
    );

    // An authorization request for another resource is refused at once (RFC 8707 invalid_target).
    const other = new URL(client.authorizationUrl!);
    other.searchParams.set('resource', 'https://other.example/mcp');
    const answer = await visit(a.client, other.href);
    expect(new URL(answer.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
    // Without PKCE, or with the plain method, no code either.
    const weakenings = [
      (url: URL) => url.searchParams.delete('code_challenge'),
      (url: URL) => url.searchParams.set('code_challenge_method', 'plain'),
    ];
    for (const weaken of weakenings) {
      const weak = new URL(client.authorizationUrl!);
      weaken(weak);
      const refusal = new URL((await visit(a.client, weak.href)).headers.get('location')!);
      expect(refusal.searchParams.get('error')).toBe('invalid_request');
      expect(refusal.searchParams.get('code')).toBeNull();
    }

    // Expired: its time is up.
    const second = (await authorize(a.client)).client.saved!.access_token;
    await t.server.ctx.db
      .update(oauthRecords)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(oauthRecords.model, 'AccessToken'), eq(oauthRecords.id, second)));
    const expired = await ping(second);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);

    // Revoked by the client (RFC 7009).
    const revoke = await fetch(`${t.url}/api/v1/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: String(client.info!.client_id) }),
    });
    expect(revoke.status).toBe(200);
    const revoked = await ping(token);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", resource_metadata="/,
    );

    // A disabled user's tokens end with them.
    const third = (await authorize(b.client)).client.saved!.access_token;
    expect((await ping(third)).status).toBe(200);
    await t.server.ctx.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, b.user.id));
    expect((await ping(third)).status).toBe(401);
    await t.server.ctx.db.update(users).set({ disabledAt: null }).where(eq(users.id, b.user.id));
  });

  it('denies when the user denies, and lets no one else answer the interaction', async () => {
    const client = testClient();
    expect(await auth(client, { serverUrl: mcpUrl() })).toBe('REDIRECT');
    const uid = await toConsentPage(a.client, client.authorizationUrl!);
    // Without a session 401; with a session of another company (without this browser's cookie) 404, no leak.
    const anonymous = t.client();
    expect((await anonymous.get(`/oauth/interaction/${uid}/consent`)).status).toBe(401);
    const stranger = await b.client.get(`/oauth/interaction/${uid}/consent`);
    expect(stranger.status).toBe(404);
    expect(JSON.stringify(stranger.body)).not.toContain('Claude');
    expect((await b.client.post(`/oauth/interaction/${uid}/consent`, { allow: true })).status).toBe(404);
    // An API key cannot consent (only a person at their own session): 403.
    const key = `ww_${randomToken(32)}`;
    await t.server.ctx.db.insert(apiKeys).values({
      userId: a.user.id,
      companyId: a.companyId,
      name: 'k',
      prefix: key.slice(0, 10),
      keyHash: sha256(key),
    });
    const byKey = t.client();
    byKey.bearer = key;
    expect((await byKey.post(`/oauth/interaction/${uid}/consent`, { allow: true })).body.error.code).toBe(
      'FORBIDDEN',
    );
    const denied = await a.client.post(`/oauth/interaction/${uid}/consent`, { allow: false });
    const back = await visit(a.client, denied.body.redirectTo);
    expect(new URL(back.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
  });

  it('lists the apps a user allowed, to them only, and revokes one with all its tokens', async () => {
    const { client } = await authorize(b.client);
    const token = client.saved!.access_token;
    const listed = await b.client.get('/oauth/apps');
    expect(listed.status).toBe(200);
    const app = listed.body.items.find(
      (item: { clientId: string }) => item.clientId === client.info!.client_id,
    );
    expect(app).toMatchObject({ clientName: 'Claude (Test)' });
    // Another company's user sees none of them and cannot revoke them (404, no leak).
    const other = await a.client.get('/oauth/apps');
    expect(JSON.stringify(other.body)).not.toContain(app.grantId);
    expect((await a.client.delete(`/oauth/apps/${app.grantId}`)).status).toBe(404);
    expect((await t.client().get('/oauth/apps')).status).toBe(401);
    expect((await ping(token)).status).toBe(200);
    expect((await b.client.delete(`/oauth/apps/${app.grantId}`)).status).toBe(204);
    expect((await ping(token)).status).toBe(401);
    // Its refresh token is gone too: the client must ask the user again.
    const refresh = await fetch(`${t.url}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: client.saved!.refresh_token!,
        client_id: String(client.info!.client_id),
      }),
    });
    expect(refresh.status).toBe(400);
    expect((await refresh.json()).error).toBe('invalid_grant');
    const after = await b.client.get('/oauth/apps');
    expect(JSON.stringify(after.body)).not.toContain(app.grantId);
  });

  it('limits client registrations per address, also in parallel', async () => {
    const register = () =>
      fetch(`${t.url}/api/v1/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Flut',
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'none',
        }),
      });
    // The earlier tests of this file registered from this address too: a fresh hour.
    await t.server.ctx.db.delete(rateLimitEvents).where(eq(rateLimitEvents.bucket, 'oauth:register'));
    const answers = await Promise.all(Array.from({ length: REGISTRATIONS_PER_HOUR + 5 }, register));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(REGISTRATIONS_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const refused = answers.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error.code).toBe('RATE_LIMITED');
  });
});
