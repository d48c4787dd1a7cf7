import { sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { signIn } from '../../../test/support/second-factor.ts';
import {
  ADMIN,
  signedInAdmin,
  signedInDataManager,
  startTestServer,
  type TestServer,
} from '../../../test/support/test-server.ts';
import { READ_CACHE_MS } from '../../db/read-cache.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false, env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' } });
});
afterAll(() => t?.close());

describe('login', () => {
  it('signs a data manager in to the user area and sets httpOnly cookies only', async () => {
    const { client, me } = await signedInDataManager(t);
    expect(me.userRole).toBe('DataManager');
    expect(me.userAbilityRules.length).toBeGreaterThan(0);
    expect(client.cookies.has('ww_access')).toBe(true);
    expect(client.cookies.has('ww_refresh')).toBe(true);
    const res = await client.get('/auth/me');
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain(client.cookies.get('ww_access'));
  });

  it('sets cookies that page scripts cannot read', async () => {
    const { email, password } = await signedInDataManager(t);
    const res = await fetch(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const cookies = res.headers.getSetCookie();
    const access = cookies.find((c) => c.startsWith('ww_access='))!;
    const refresh = cookies.find((c) => c.startsWith('ww_refresh='))!;
    expect(access).toMatch(/HttpOnly/i);
    expect(access).toMatch(/SameSite=Lax/i);
    expect(refresh).toMatch(/HttpOnly/i);
    expect(refresh).toMatch(/Path=\/api\/v1\/auth/);
    expect(cookies.find((c) => c.startsWith('ww_csrf='))).not.toMatch(/HttpOnly/i);
  });

  it('sends a user with the right password to their own area, and a wrong password gets the same 401 everywhere', async () => {
    const { email, password } = await signedInDataManager(t);
    const wrongArea = await t.client().post('/auth/login', { email, password, area: 'employee' });
    expect(wrongArea.status).toBe(409);
    expect(wrongArea.body.error).toMatchObject({
      code: 'WRONG_AREA',
      details: { area: 'user', loginPath: '/login' },
    });
    const wrongPassword = await t
      .client()
      .post('/auth/login', { email, password: 'nope-nope-1', area: 'employee' });
    const wrongPasswordHome = await t
      .client()
      .post('/auth/login', { email, password: 'nope-nope-1', area: 'user' });
    const unknown = await t
      .client()
      .post('/auth/login', { email: 'nobody@nowhere.example', password, area: 'employee' });
    for (const res of [wrongPassword, wrongPasswordHome, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
    }
    expect(wrongPassword.body.error.message).toBe(unknown.body.error.message);
  });

  it('uses the spec wording for a wrong password', async () => {
    const client = t.client();
    client.language = 'en';
    const res = await client.post('/auth/login', { email: 'nobody@nowhere.example', password: 'x' });
    expect(res.body.error.message).toBe('Incorrect email or password.');
  });

  it.each([
    ['admin', 'Administrator'],
    ['analysis', 'Administrator'],
  ] as const)('lets the administrator into the %s area', async (area, role) => {
    const res = await signIn(t, t.client(), { ...ADMIN, area });
    expect(res.status).toBe(200);
    expect(res.body.userRole).toBe(role);
  });

  it('keeps staff without the analysis permission out of the analysis area', async () => {
    const staff = await signedInAs(t, 'Staff');
    const res = await t.client().post('/auth/login', {
      email: staff.user.email,
      password: staff.password,
      area: 'analysis',
    });
    expect(res.status).toBe(409);
    expect(res.body.error.details).toEqual({ area: 'admin', loginPath: '/admin/auth/login' });
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('lets employees in only at the employee area, and tells them where it is', async () => {
    const employee = await signedInAs(t, 'Employee');
    expect((await employee.client.get('/auth/me')).body.userRole).toBe('Employee');
    const res = await t.client().post('/auth/login', {
      email: employee.user.email,
      password: employee.password,
      area: 'user',
    });
    expect(res.status).toBe(409);
    expect(res.body.error.details).toEqual({ area: 'employee', loginPath: '/employee/login' });
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});

describe('rate limiting of failed logins', () => {
  it('answers 429 with Retry-After after too many failures for one account, even with the right password', async () => {
    const { email, password } = await signedInDataManager(t);
    for (let i = 0; i < 3; i++) {
      expect((await t.client().post('/auth/login', { email, password: 'wrong-pass-1' })).status).toBe(401);
    }
    const limited = await t.client().post('/auth/login', { email, password });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('never counts successful logins', async () => {
    const { email, password } = await signedInDataManager(t);
    for (let i = 0; i < 5; i++) {
      expect((await t.client().post('/auth/login', { email, password })).status).toBe(200);
    }
  });
});

describe('refresh', () => {
  it('rotates the refresh token and keeps the session alive', async () => {
    const { client } = await signedInDataManager(t);
    const before = client.cookies.get('ww_refresh');
    const res = await client.post('/auth/refresh');
    expect(res.status).toBe(200);
    expect(client.cookies.get('ww_refresh')).not.toBe(before);
    expect((await client.get('/auth/me')).status).toBe(200);
  });

  it('revokes the whole family when a used refresh token comes back', async () => {
    const { client } = await signedInDataManager(t);
    const stolen = client.cookies.get('ww_refresh')!;
    expect((await client.post('/auth/refresh')).status).toBe(200);

    const attacker = t.client();
    attacker.cookies.set('ww_refresh', stolen);
    attacker.cookies.set('ww_csrf', client.cookies.get('ww_csrf')!);
    const reuse = await attacker.post('/auth/refresh');
    expect(reuse.status).toBe(401);
    expect(reuse.body.error.code).toBe('SESSION_EXPIRED');

    const victim = await client.get('/auth/me');
    expect(victim.status).toBe(401);
    expect((await client.post('/auth/refresh')).status).toBe(401);
  });

  it('requires the CSRF token with the refresh cookie', async () => {
    const { client } = await signedInDataManager(t);
    client.sendCsrf = false;
    const res = await client.post('/auth/refresh');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CSRF_INVALID');
  });

  it('refuses a refresh without a cookie', async () => {
    const res = await t.client().post('/auth/refresh');
    expect(res.status).toBe(401);
  });
});

describe('logout', () => {
  it('ends the session on the server, not just in the browser', async () => {
    const { client } = await signedInDataManager(t);
    const access = client.cookies.get('ww_access')!;
    const csrf = client.cookies.get('ww_csrf')!;
    expect((await client.post('/auth/logout')).status).toBe(200);
    expect(client.cookies.has('ww_access')).toBe(false);
    const replay = t.client();
    replay.cookies.set('ww_access', access);
    replay.cookies.set('ww_csrf', csrf);
    expect((await replay.get('/auth/me')).status).toBe(401);
  });
});

/** An access token for the user's session, signed with the server's key, issued and expiring when given (seconds). */
async function accessTokenOf(userId: string, issuedAt: number, expiresAt: number): Promise<string> {
  const [session] = (
    await t.server.ctx.db.execute<{ id: string }>(
      sql`select id from auth_sessions where user_id = ${userId} limit 1`,
    )
  ).rows;
  return new SignJWT({ sid: session!.id })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(new TextEncoder().encode(t.server.ctx.config.secrets.tokenSigningKey));
}

describe('access tokens and CSRF', () => {
  it('refuses a forged access token', async () => {
    const client = t.client();
    client.cookies.set(
      'ww_access',
      'eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJ4Iiwic3ViIjoieSIsImV4cCI6OTk5OTk5OTk5OX0.c2lnbmF0dXJl',
    );
    const res = await client.get('/auth/me');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('answers SESSION_EXPIRED for an expired access token', async () => {
    const { client, me } = await signedInDataManager(t);
    const now = Math.floor(Date.now() / 1000);
    client.cookies.set('ww_access', await accessTokenOf(me.userData.id, now - 3600, now - 60));
    const res = await client.get('/auth/me');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('SESSION_EXPIRED');
  });

  it('refuses an access token once it has expired, though it was accepted (and remembered) before', async () => {
    const { client, me } = await signedInDataManager(t);
    const now = Math.floor(Date.now() / 1000);
    const exp = now + 2;
    client.cookies.set('ww_access', await accessTokenOf(me.userData.id, now, exp));
    expect((await client.get('/auth/me')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 50));
    const res = await client.get('/auth/me');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('SESSION_EXPIRED');
  });

  it('refuses a cookie-authenticated mutation without the CSRF header', async () => {
    const { client } = await signedInDataManager(t);
    client.sendCsrf = false;
    const res = await client.patch('/auth/me', { firstName: 'Eve' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CSRF_INVALID');
  });

  it("refuses another session's (stale) CSRF token", async () => {
    const first = await signedInDataManager(t);
    const stale = first.client.cookies.get('ww_csrf')!;
    await first.client.post('/auth/logout');
    const login = await first.client.post('/auth/login', { email: first.email, password: first.password });
    expect(login.status).toBe(200);
    const res = await first.client.request(
      'PATCH',
      '/auth/me',
      { firstName: 'Eve' },
      { headers: { 'x-csrf-token': stale } },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CSRF_INVALID');
  });
});

describe('what every signed-in request reads (cached for READ_CACHE_MS)', () => {
  it("shows this server's own changes at the next request", async () => {
    const { client } = await signedInDataManager(t);
    expect((await client.get('/auth/me')).body.userData.firstName).not.toBe('Ida');
    expect((await client.patch('/auth/me', { firstName: 'Ida' })).status).toBe(200);
    expect((await client.get('/auth/me')).body.userData.firstName).toBe('Ida');
    const admin = await signedInAdmin(t);
    const me = (await client.get('/auth/me')).body;
    expect((await admin.post(`/admin/users/data-managers/${me.userData.id}/deactivate`)).status).toBe(200);
    expect((await client.get('/auth/me')).status).toBe(401);
  });

  it('refuses a session within READ_CACHE_MS once another process has disabled its user', async () => {
    const { client, me } = await signedInDataManager(t);
    expect((await client.get('/auth/me')).status).toBe(200);
    const other = new pg.Client({ connectionString: t.server.databaseUrl });
    await other.connect();
    try {
      await other.query('update users set disabled_at = now() where id = $1', [me.userData.id]);
    } finally {
      await other.end();
    }
    await new Promise((resolve) => setTimeout(resolve, READ_CACHE_MS + 50));
    expect((await client.get('/auth/me')).status).toBe(401);
  });
});

describe('PATCH /auth/me', () => {
  it('saves account details and language, and answers in the new language', async () => {
    const { client } = await signedInDataManager(t);
    const res = await client.patch('/auth/me', { firstName: 'Olena', language: 'ua', country: 'ua' });
    expect(res.status).toBe(200);
    expect(res.body.userData).toMatchObject({ firstName: 'Olena', language: 'uk', country: 'UA' });
    const bad = await client.patch('/auth/me', { phone: 'call me' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toBe('Будь ласка, заповніть форму правильно.');
  });

  it('refuses fields that are not account details', async () => {
    const { client } = await signedInDataManager(t);
    const res = await client.patch('/auth/me', { kind: 'Administrator' });
    expect(res.status).toBe(422);
    expect((await client.get('/auth/me')).body.userRole).toBe('DataManager');
  });
});
