import { IMPERSONATION_MINUTES } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

const activity = async (admin: ReturnType<TestServer['client']>, action: string) =>
  (await admin.get(`/admin/activity-log?q=${action}&pageSize=100`)).body.items.filter(
    (e: { action: string; statusCode: number }) => e.action === action && e.statusCode === 200,
  );

describe('viewing the product as a user', () => {
  it('switches the session to the user, is audited at start and end, and goes back without a new sign-in', async () => {
    const admin = await signedInAdmin(t);
    const adminMe = (await admin.get('/auth/me')).body;
    const dm = await signedInAs(t, 'DataManager');
    await dm.client.post('/divisions', { name: 'Nur beim Kunden' });

    const started = await admin.post('/admin/impersonation', { userId: dm.user.id });
    expect(started.status).toBe(200);
    expect(started.body.userData.id).toBe(dm.user.id);
    expect(started.body.impersonation).toMatchObject({ by: adminMe.userData.email });
    const ends = new Date(started.body.impersonation.expiresAt).getTime() - Date.now();
    expect(ends).toBeGreaterThan((IMPERSONATION_MINUTES - 1) * 60_000);
    expect(ends).toBeLessThanOrEqual(IMPERSONATION_MINUTES * 60_000);
    expect((await admin.get('/auth/me')).body.impersonation.by).toBe(adminMe.userData.email);
    const divisions = (await admin.get('/divisions')).body.items;
    expect(divisions.map((d: { name: string }) => d.name)).toEqual(['Nur beim Kunden']);
    // The data manager's own session is untouched.
    expect((await dm.client.get('/divisions')).status).toBe(200);
    // What the administrator does as the data manager is the data manager's act, marked as done by the administrator.
    expect((await admin.post('/divisions', { name: 'Vom Betreiber angelegt' })).status).toBe(201);

    const back = await admin.post('/auth/impersonation/end');
    expect(back.status).toBe(200);
    expect(back.body.userData.id).toBe(adminMe.userData.id);
    expect(back.body.impersonation).toBeNull();
    expect((await admin.get('/auth/me')).body.userData.id).toBe(adminMe.userData.id);
    expect((await admin.get('/admin/companies')).status).toBe(200);
    expect((await admin.post('/auth/impersonation/end')).body.error.code).toBe('NOT_IMPERSONATING');

    const [start] = await activity(admin, 'startImpersonation');
    expect(start).toMatchObject({
      actorEmail: adminMe.userData.email,
      changes: { before: null, after: { impersonating: { userId: dm.user.id, email: dm.user.email } } },
    });
    const [end] = await activity(admin, 'endImpersonation');
    expect(end).toMatchObject({
      actorEmail: adminMe.userData.email,
      changes: { before: { impersonating: { userId: dm.user.id, email: dm.user.email }, expired: false } },
    });
    const created = (await admin.get('/admin/activity-log?action=createDivision&pageSize=100')).body.items;
    expect(created.filter((e: { actorEmail: string }) => e.actorEmail === dm.user.email)).toEqual([
      expect.objectContaining({ statusCode: 201, impersonatorEmail: adminMe.userData.email }),
      expect.objectContaining({ statusCode: 201, impersonatorEmail: null }),
    ]);
    const csv: string = (
      await admin.get(`/admin/activity-log/export?actor=${encodeURIComponent(adminMe.userData.email)}`)
    ).body;
    expect(csv).toContain(`${dm.user.email},${adminMe.userData.email}`);
  });

  it('refuses password and API-key changes while viewing as the user', async () => {
    const admin = await signedInAdmin(t);
    const dm = await signedInAs(t, 'DataManager');
    const key = await dm.client.post('/api-keys', { name: 'Eigen' });
    await admin.post('/admin/impersonation', { userId: dm.user.id });
    admin.language = 'en';
    const password = await admin.post('/auth/change-password', {
      currentPassword: dm.password,
      password: 'neu-Pass-123',
      confirmPassword: 'neu-Pass-123',
    });
    expect(password.status).toBe(403);
    expect(password.body.error).toMatchObject({
      code: 'IMPERSONATION_RESTRICTED',
      message: expect.stringContaining('password'),
    });
    expect((await admin.post('/api-keys', { name: 'Fremd' })).body.error.code).toBe(
      'IMPERSONATION_RESTRICTED',
    );
    expect((await admin.delete(`/api-keys/${key.body.apiKey.id}`)).body.error.code).toBe(
      'IMPERSONATION_RESTRICTED',
    );
    // The password still works for its owner.
    expect(
      (await t.client().post('/auth/login', { email: dm.user.email, password: dm.password })).status,
    ).toBe(200);
  });

  it('logs what the operator opens while viewing as the user, each address once a while', async () => {
    const admin = await signedInAdmin(t);
    const adminEmail = (await admin.get('/auth/me')).body.userData.email;
    const dm = await signedInAs(t, 'DataManager');
    const division = (await dm.client.post('/divisions', { name: 'Nur für Kunden' })).body;
    const chat = (await dm.client.post('/chats', { name: 'Intern', divisionIds: [division.id] })).body;
    await admin.post('/admin/impersonation', { userId: dm.user.id });
    for (let i = 0; i < 3; i++) expect((await admin.get('/divisions')).status).toBe(200);
    expect((await admin.get(`/chats/${chat.id}`)).status).toBe(200);
    expect((await admin.get('/auth/me')).status).toBe(200);
    await admin.post('/auth/impersonation/end');
    // The data manager's own reads are hers alone, as before.
    await dm.client.get(`/chats/${chat.id}`);

    const reads = (
      await admin.get(`/admin/activity-log?actor=${encodeURIComponent(dm.user.email)}&pageSize=100`)
    ).body.items.filter((e: { method: string }) => e.method === 'GET');
    expect(
      reads.map((e: { endpoint: string; actorEmail: string; impersonatorEmail: string }) => [
        e.endpoint,
        e.actorEmail,
        e.impersonatorEmail,
      ]),
    ).toEqual([
      [`/api/v1/chats/${chat.id}`, dm.user.email, adminEmail],
      ['/api/v1/divisions', dm.user.email, adminEmail],
    ]);
  });

  it('ends by itself at its time limit; the way back still works', async () => {
    const admin = await signedInAdmin(t);
    const employee = await signedInAs(t, 'Employee');
    const started = await admin.post('/admin/impersonation', { userId: employee.user.id });
    expect(started.body.userRole).toBe('Employee');
    await t.server.ctx.db.execute(
      sql`update auth_sessions set expires_at = now() - interval '1 second' where impersonator_session_id is not null
        and user_id = ${employee.user.id}`,
    );
    expect((await admin.get('/auth/me')).status).toBe(401);
    expect((await admin.post('/auth/refresh')).body.error.code).toBe('SESSION_EXPIRED');
    const back = await admin.post('/auth/impersonation/end');
    expect(back.status).toBe(200);
    expect(back.body.userRole).toBe('Administrator');
    const [end] = await activity(admin, 'endImpersonation');
    expect(end.changes.before).toMatchObject({ impersonating: { userId: employee.user.id }, expired: true });
  });

  it('is the administrator’s alone, and not of operators, oneself or switched-off users', async () => {
    const admin = await signedInAdmin(t);
    const me = (await admin.get('/auth/me')).body.userData.id;
    const staff = await signedInAs(t, 'Staff');
    const dm = await signedInAs(t, 'DataManager');
    expect((await staff.client.post('/admin/impersonation', { userId: dm.user.id })).status).toBe(403);
    expect((await dm.client.post('/admin/impersonation', { userId: dm.user.id })).status).toBe(403);
    expect((await admin.post('/admin/impersonation', { userId: me })).body.error.code).toBe(
      'IMPERSONATION_NOT_ALLOWED',
    );
    expect((await admin.post('/admin/impersonation', { userId: staff.user.id })).body.error.code).toBe(
      'IMPERSONATION_NOT_ALLOWED',
    );
    expect((await admin.post('/admin/impersonation', { userId: crypto.randomUUID() })).status).toBe(404);
    await admin.post(`/admin/users/data-managers/${dm.user.id}/deactivate`);
    expect((await admin.post('/admin/impersonation', { userId: dm.user.id })).body.error.code).toBe(
      'IMPERSONATION_NOT_ALLOWED',
    );
    expect((await admin.get('/auth/me')).body.userData.id).toBe(me);
  });
});
