import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { issueUserToken } from '../../core/user-tokens.ts';
import { READ_CACHE_MS } from '../../db/read-cache.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

describe('personal API keys', () => {
  it('shows the secret once, stores only its hash, and lists it without the secret', async () => {
    const { client } = await signedInDataManager(t);
    const created = await client.post('/api-keys', { name: 'Backup-Skript' });
    expect(created.status).toBe(201);
    const token: string = created.body.token;
    expect(token).toMatch(/^ww_[A-Za-z0-9_-]{40,}$/);
    expect(created.body.apiKey.prefix).toBe(token.slice(0, 10));

    const list = await client.get('/api-keys');
    expect(list.body.total).toBe(1);
    expect(list.body.items[0].name).toBe('Backup-Skript');
    expect(JSON.stringify(list.body)).not.toContain(token);

    const stored = await t.server.ctx.db.execute<{ key_hash: string }>(
      sql`select key_hash from api_keys where id = ${created.body.apiKey.id}`,
    );
    expect(stored.rows[0]!.key_hash).not.toContain(token);
    expect(stored.rows[0]!.key_hash).toHaveLength(64);
  });

  it("works as a Bearer token with its owner's permissions and no CSRF token", async () => {
    const { client, email } = await signedInDataManager(t);
    const { token } = (await client.post('/api-keys', { name: 'cli' })).body;
    const script = t.client();
    script.bearer = token;
    const me = await script.get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.userData.email).toBe(email);
    expect(me.body.csrfToken).toBeNull();
    const patched = await script.patch('/auth/me', { lastName: 'Skript' });
    expect(patched.status).toBe(200);
    const admin = await script.get('/admin/emails');
    expect(admin.status).toBe(403);
  });

  it('shows when a key was last used, recorded to the minute', async () => {
    const { client } = await signedInDataManager(t);
    const { token, apiKey } = (await client.post('/api-keys', { name: 'Zeiterfassung' })).body;
    const lastUsed = async () => (await client.get('/api-keys')).body.items[0].lastUsedAt as string | null;
    expect(await lastUsed()).toBeNull();
    const script = t.client();
    script.bearer = token;
    const setLastUse = (secondsAgo: number) =>
      t.server.ctx.db.execute(
        sql`update api_keys set last_used_at = now() - make_interval(secs => ${secondsAgo}) where id = ${apiKey.id}`,
      );

    expect((await script.get('/auth/me')).status).toBe(200);
    const first = await lastUsed();
    expect(first).not.toBeNull();

    await setLastUse(30);
    const within = await lastUsed();
    expect((await script.get('/auth/me')).status).toBe(200);
    expect(await lastUsed()).toBe(within);

    await setLastUse(120);
    const before = Date.parse((await lastUsed())!);
    expect((await script.get('/auth/me')).status).toBe(200);
    expect(Date.parse((await lastUsed())!)).toBeGreaterThan(before + 60_000);
  });

  it('stops working once revoked, and a wrong key is 401', async () => {
    const { client } = await signedInDataManager(t);
    const created = (await client.post('/api-keys', { name: 'kurzlebig' })).body;
    expect((await client.delete(`/api-keys/${created.apiKey.id}`)).status).toBe(204);
    const script = t.client();
    script.bearer = created.token;
    expect((await script.get('/auth/me')).status).toBe(401);
    expect((await client.get('/api-keys')).body.total).toBe(0);
    script.bearer = 'ww_not-a-real-key';
    expect((await script.get('/auth/me')).status).toBe(401);
  });

  it('is refused within READ_CACHE_MS once another process has revoked it', async () => {
    const { client } = await signedInDataManager(t);
    const created = (await client.post('/api-keys', { name: 'anderswo' })).body;
    const script = t.client();
    script.bearer = created.token;
    expect((await script.get('/auth/me')).status).toBe(200);
    const other = new pg.Client({ connectionString: t.server.databaseUrl });
    await other.connect();
    try {
      await other.query('update api_keys set revoked_at = now() where id = $1', [created.apiKey.id]);
    } finally {
      await other.end();
    }
    await new Promise((resolve) => setTimeout(resolve, READ_CACHE_MS + 50));
    expect((await script.get('/auth/me')).status).toBe(401);
  });

  it('refuses an expired key', async () => {
    const { client } = await signedInDataManager(t);
    const created = (await client.post('/api-keys', { name: 'alt', expiresInDays: 1 })).body;
    await t.server.ctx.db.execute(
      sql`update api_keys set expires_at = now() - interval '1 minute' where id = ${created.apiKey.id}`,
    );
    const script = t.client();
    script.bearer = created.token;
    expect((await script.get('/auth/me')).status).toBe(401);
  });

  it("answers 404 for another company's key and leaves it working", async () => {
    const owner = await signedInDataManager(t);
    const created = (await owner.client.post('/api-keys', { name: 'fremd' })).body;
    const other = await signedInDataManager(t);
    const res = await other.client.delete(`/api-keys/${created.apiKey.id}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await other.client.get('/api-keys')).body.items).toEqual([]);
    const script = t.client();
    script.bearer = created.token;
    expect((await script.get('/auth/me')).status).toBe(200);
  });

  it('is refused to employees (403)', async () => {
    const { client } = await signedInAs(t, 'Employee');
    expect((await client.post('/api-keys', { name: 'x' })).status).toBe(403);
    expect((await client.get('/api-keys')).status).toBe(403);
  });

  it('validates its input', async () => {
    const { client } = await signedInDataManager(t);
    const res = await client.post('/api-keys', { name: '' });
    expect(res.status).toBe(422);
    expect((await client.delete('/api-keys/not-a-uuid')).status).toBe(422);
  });
});

describe('API keys and account recovery', () => {
  /** A data manager with one working key, and a client that uses it. */
  async function withKey() {
    const dm = await signedInDataManager(t);
    const { token } = (await dm.client.post('/api-keys', { name: 'Skript' })).body;
    const script = t.client();
    script.bearer = token;
    expect((await script.get('/auth/me')).status).toBe(200);
    return { ...dm, userId: dm.me.userData.id as string, script };
  }

  it('revokes every key of the user when the password is reset from a mailed link', async () => {
    const dm = await withKey();
    const second = t.client();
    second.bearer = (await dm.client.post('/api-keys', { name: 'Zweiter' })).body.token;
    const token = await issueUserToken(t.server.ctx.db, dm.userId, 'reset_password');
    const reset = await t.client().post('/auth/reset-password', {
      token,
      password: 'ganz-neu-42',
      confirmPassword: 'ganz-neu-42',
    });
    expect(reset.status).toBe(200);
    expect((await dm.script.get('/auth/me')).status).toBe(401);
    expect((await second.get('/auth/me')).status).toBe(401);
  });

  it('revokes the keys on a password change only when asked to', async () => {
    const kept = await withKey();
    const unchanged = await kept.client.post('/auth/change-password', {
      currentPassword: kept.password,
      password: 'ganz-neu-42',
      confirmPassword: 'ganz-neu-42',
    });
    expect(unchanged.status).toBe(200);
    expect((await kept.script.get('/auth/me')).status).toBe(200);

    const revoked = await withKey();
    const changed = await revoked.client.post('/auth/change-password', {
      currentPassword: revoked.password,
      password: 'ganz-neu-42',
      confirmPassword: 'ganz-neu-42',
      revokeApiKeys: true,
    });
    expect(changed.status).toBe(200);
    expect((await revoked.script.get('/auth/me')).status).toBe(401);
    // The session that changed the password stays, with no key left.
    expect((await revoked.client.get('/api-keys')).body.total).toBe(0);
    // A wrong current password revokes nothing.
    const other = await withKey();
    const wrong = await other.client.post('/auth/change-password', {
      currentPassword: 'not-it-1',
      password: 'ganz-neu-42',
      confirmPassword: 'ganz-neu-42',
      revokeApiKeys: true,
    });
    expect(wrong.status).toBe(422);
    expect((await other.script.get('/auth/me')).status).toBe(200);
  });

  it('never lets a key create a key (403), but lets it list and revoke its owner’s keys', async () => {
    const dm = await withKey();
    const minted = await dm.script.post('/api-keys', { name: 'Nachschub' });
    expect(minted.status).toBe(403);
    expect(minted.body.error.code).toBe('FORBIDDEN');
    const list = await dm.script.get('/api-keys');
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect((await dm.script.delete(`/api-keys/${list.body.items[0].id}`)).status).toBe(204);
    expect((await dm.script.get('/auth/me')).status).toBe(401);
  });
});
