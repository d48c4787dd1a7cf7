import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/second-factor.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { userTokens } from '../../db/schema/index.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { ADMIN_PASSWORD: '' } });
});
afterAll(() => t?.close());

const tokenOf = (link: string | null) => new URL(link!).searchParams.get('token')!;

describe('forgot and reset password', () => {
  it('answers the same for known and unknown addresses, and mails only the known one', async () => {
    const { email } = await signedInDataManager(t);
    const client = t.client();
    client.language = 'en';
    const known = await client.post('/auth/forgot-password', { email });
    const unknown = await client.post('/auth/forgot-password', { email: 'ghost@nowhere.example' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body.message).toBe('Password reset link sent, check your email.');
    await t.smtp!.waitFor(
      (m) => m.to.includes(email) && m.link?.includes('/confirm-password?token=') === true,
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(t.smtp!.mails.some((m) => m.to.includes('ghost@nowhere.example'))).toBe(false);
  });

  it('resets with the mailed link once, ends every session, and the new password works', async () => {
    const { client, email } = await signedInDataManager(t);
    await t.client().post('/auth/forgot-password', { email });
    const mail = await t.smtp!.waitFor((m) => m.to.includes(email) && m.subject.includes('Passwort'));
    const token = tokenOf(mail.link);
    const res = await t.client().post('/auth/reset-password', {
      token,
      password: 'ganz-neu-42',
      confirmPassword: 'ganz-neu-42',
    });
    expect(res.status).toBe(200);
    expect((await client.get('/auth/me')).status).toBe(401);
    expect((await t.client().post('/auth/login', { email, password: 'ganz-neu-42' })).status).toBe(200);
    const reuse = await t.client().post('/auth/reset-password', {
      token,
      password: 'noch-neuer-42',
      confirmPassword: 'noch-neuer-42',
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error.code).toBe('TOKEN_INVALID');
  });

  it('refuses a reset link older than one hour', async () => {
    const { email } = await signedInDataManager(t);
    await t.client().post('/auth/forgot-password', { email });
    const mail = await t.smtp!.waitFor((m) => m.to.includes(email) && m.subject.includes('Passwort'));
    await t.server.ctx.db
      .update(userTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(sql`purpose = 'reset_password'`);
    const res = await t.client().post('/auth/reset-password', {
      token: tokenOf(mail.link),
      password: 'ganz-neu-42',
      confirmPassword: 'ganz-neu-42',
    });
    expect(res.body.error.code).toBe('TOKEN_INVALID');
  });

  it('keeps only the newest reset link valid', async () => {
    const { email } = await signedInDataManager(t);
    await t.client().post('/auth/forgot-password', { email });
    await t.client().post('/auth/forgot-password', { email });
    await t.smtp!.waitFor((m) => m.to.includes(email) && m.subject.includes('Passwort'));
    const mails = await (async () => {
      for (let i = 0; i < 100; i++) {
        const found = t.smtp!.mails.filter((m) => m.to.includes(email) && m.subject.includes('Passwort'));
        if (found.length === 2) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('second mail missing');
    })();
    const tokens = mails.map((m) => tokenOf(m.link));
    const rows = await t.server.ctx.db.execute<{ used: boolean }>(
      sql`select used_at is not null as used from user_tokens where purpose = 'reset_password' order by created_at desc limit 2`,
    );
    expect(rows.rows.map((r) => r.used)).toEqual([false, true]);
    expect(tokens[0]).not.toBe(tokens[1]);
  });
});

describe('set password (first administrator and invited users)', () => {
  it('prints a one-time setup link that sets the first administrator password', async () => {
    expect(t.server.firstAdmin?.state).toBe('setup-link');
    const outcome = t.server.firstAdmin as { link: string; email: string };
    const token = tokenOf(outcome.link);
    const res = await t.client().post('/auth/set-password', {
      token,
      password: 'admin-neu-1',
      confirmPassword: 'admin-neu-1',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: outcome.email, loginPath: '/admin/auth/login' });
    const login = await signIn(t, t.client(), {
      email: outcome.email,
      password: 'admin-neu-1',
      area: 'admin',
    });
    expect(login.status).toBe(200);
    const again = await t
      .client()
      .post('/auth/set-password', { token, password: 'x-admin-1', confirmPassword: 'x-admin-1' });
    expect(again.body.error.code).toBe('TOKEN_INVALID');
  });

  it('does not accept a reset token as an invitation token', async () => {
    const { email } = await signedInDataManager(t);
    await t.client().post('/auth/forgot-password', { email });
    const mail = await t.smtp!.waitFor((m) => m.to.includes(email) && m.subject.includes('Passwort'));
    const res = await t.client().post('/auth/set-password', {
      token: tokenOf(mail.link),
      password: 'ganz-neu-42',
      confirmPassword: 'ganz-neu-42',
    });
    expect(res.body.error.code).toBe('TOKEN_INVALID');
  });
});

describe('change password', () => {
  it('needs the current password, then ends the other sessions but keeps this one', async () => {
    const { client, email, password } = await signedInDataManager(t, { language: 'en' });
    const other = t.client();
    expect((await other.post('/auth/login', { email, password })).status).toBe(200);

    const wrong = await client.post('/auth/change-password', {
      currentPassword: 'not-it-1',
      password: 'ganz-neu-42',
      confirmPassword: 'ganz-neu-42',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe('CURRENT_PASSWORD_WRONG');

    const ok = await client.post('/auth/change-password', {
      currentPassword: password,
      password: 'ganz-neu-42',
      confirmPassword: 'ganz-neu-42',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Password changed successfully.');
    expect((await client.get('/auth/me')).status).toBe(200);
    expect((await other.get('/auth/me')).status).toBe(401);
    expect((await t.client().post('/auth/login', { email, password })).status).toBe(401);
    expect((await t.client().post('/auth/login', { email, password: 'ganz-neu-42' })).status).toBe(200);
  });
});

describe('resend verification', () => {
  it('mails a new link and invalidates the old one', async () => {
    const { client, email } = await signedInDataManager(t);
    const first = await t.smtp!.waitFor((m) => m.to.includes(email) && m.link?.includes('/verify?') === true);
    expect((await client.post('/auth/resend-verification')).status).toBe(200);
    await (async () => {
      for (let i = 0; i < 100; i++) {
        if (t.smtp!.mails.filter((m) => m.to.includes(email) && m.link?.includes('/verify?')).length === 2)
          return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('no second verification mail');
    })();
    const res = await t.client().post('/auth/verify-email', { token: tokenOf(first.link) });
    expect(res.body.error.code).toBe('TOKEN_INVALID');
  });
});
