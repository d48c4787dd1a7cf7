import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { signIn } from '../../../test/support/second-factor.ts';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { roles } from '../../db/schema/index.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const roleId = async (kind: 'Administrator' | 'Staff' | 'DataManager') =>
  (await t.server.ctx.db.select().from(roles).where(eq(roles.kind, kind)))[0]!.id;
const address = () => `team-${Math.random().toString(36).slice(2, 8)}@betreiber.example`;

describe('staff members', () => {
  it('are invited with a role, set their password from the mail and sign in to the back office', async () => {
    const admin = await signedInAdmin(t);
    const reports = await admin.post('/admin/roles', {
      name: 'Auswertung',
      rules: [{ action: 'read', subject: ['admin', 'Feedback'] }],
    });
    const email = address();
    const invited = await admin.post('/admin/staff', {
      email,
      firstName: 'Lea',
      lastName: 'Brandt',
      language: 'de',
      roleIds: [reports.body.id],
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({
      kind: 'Staff',
      status: 'invited',
      roles: [{ id: reports.body.id, name: 'Auswertung', kind: null }],
      lastSignInAt: null,
    });
    const mail = await t.smtp!.waitFor((m) => m.to.includes(email));
    expect(mail.link).toContain('/setPassword?token=');
    expect(mail.text).not.toContain('{{');
    const session = t.client();
    const set = await session.post('/auth/set-password', {
      token: new URL(mail.link!).searchParams.get('token'),
      password: 'lea-Pass-123',
      confirmPassword: 'lea-Pass-123',
    });
    expect(set.body).toMatchObject({ loginPath: '/admin/auth/login' });
    const login = await signIn(t, session, { email, password: 'lea-Pass-123', area: 'admin' });
    expect(login.status).toBe(200);
    expect((await session.get('/feedback')).status).toBe(200);
    expect((await session.get('/admin/staff')).status).toBe(403);

    const listed = await admin.get(`/admin/staff?q=${encodeURIComponent(email)}`);
    expect(listed.body.items[0]).toMatchObject({ status: 'active' });
    expect(listed.body.items[0].lastSignInAt).not.toBeNull();

    // Another role: the next request follows it.
    const changed = await admin.patch(`/admin/staff/${invited.body.id}`, {
      roleIds: [await roleId('Staff')],
    });
    expect(changed.body.roles.map((r: { name: string }) => r.name)).toEqual(['Staff']);
    expect((await session.get('/feedback')).status).toBe(403);
    expect((await session.get('/admin/staff')).status).toBe(200);

    // Deactivated: signed out at once; reactivated: may sign in again.
    const off = await admin.post(`/admin/staff/${invited.body.id}/deactivate`);
    expect(off.body.status).toBe('deactivated');
    expect((await session.get('/auth/me')).status).toBe(401);
    // With the right password the sign-in names the reason (a wrong one stays INVALID_CREDENTIALS).
    const refused = await t.client().post('/auth/login', { email, password: 'lea-Pass-123', area: 'admin' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'ACCOUNT_DEACTIVATED']);
    // In the activity log with before and after (written once the answer is sent).
    await expect
      .poll(
        async () =>
          (await admin.get('/admin/activity-log?q=deactivateStaffMember&pageSize=100')).body.items.find(
            (e: { changes: { before: { email: string } } | null }) => e.changes?.before.email === email,
          )?.changes,
      )
      .toMatchObject({ before: { status: 'active', roles: ['Staff'] }, after: { status: 'deactivated' } });
    expect((await admin.post(`/admin/staff/${invited.body.id}/reactivate`)).body.status).toBe('active');
    expect((await signIn(t, t.client(), { email, password: 'lea-Pass-123', area: 'admin' })).status).toBe(
      200,
    );
    expect((await admin.delete(`/admin/staff/${invited.body.id}`)).status).toBe(204);
    expect((await admin.get(`/admin/staff/${invited.body.id}`)).status).toBe(404);
  });

  it('lists only the operator’s users, never company users', async () => {
    const admin = await signedInAdmin(t);
    const dm = await signedInAs(t, 'DataManager');
    const staff = await signedInAs(t, 'Staff');
    const ids = (await admin.get('/admin/staff?pageSize=100')).body.items.map((m: { id: string }) => m.id);
    expect(ids).toContain(staff.user.id);
    expect(ids).not.toContain(dm.user.id);
    expect((await admin.get(`/admin/staff/${dm.user.id}`)).status).toBe(404);
    for (const sort of ['lastName', '-email', 'lastSignInAt', '-lastSignInAt', 'createdAt']) {
      const sorted = await admin.get(`/admin/staff?sort=${sort}&status=active&pageSize=100`);
      expect(sorted.status).toBe(200);
      expect(sorted.body.items.every((m: { status: string }) => m.status === 'active')).toBe(true);
    }
    const byHolders = await admin.get('/admin/roles?sort=-holderCount');
    expect(byHolders.body.items[0].holderCount).toBeGreaterThanOrEqual(byHolders.body.items[1].holderCount);
    // A data manager's User rules pass the route's check, but the operator's users are the operator's alone.
    expect((await dm.client.get(`/admin/staff/${staff.user.id}`)).status).toBe(403);
    expect((await dm.client.get('/admin/staff')).status).toBe(403);
  });

  it('refuses company roles, duplicate addresses and the caller themselves', async () => {
    const admin = await signedInAdmin(t);
    const body = { firstName: 'Max', lastName: 'Muster', language: 'en' };
    const company = await admin.post('/admin/staff', {
      ...body,
      email: address(),
      roleIds: [await roleId('DataManager')],
    });
    expect(company.status).toBe(422);
    expect(company.body.error.code).toBe('ROLE_NOT_ASSIGNABLE');
    const taken = await admin.post('/admin/staff', {
      ...body,
      email: 'ADMIN@test.example',
      roleIds: [await roleId('Staff')],
    });
    expect(taken.body.error.code).toBe('EMAIL_TAKEN');
    const me = (await admin.get('/auth/me')).body.userData;
    expect((await admin.post(`/admin/staff/${me.id}/deactivate`)).body.error.code).toBe('STAFF_SELF');
    expect((await admin.delete(`/admin/staff/${me.id}`)).body.error.code).toBe('STAFF_SELF');
  });

  it('get a new invitation while they have not set a password', async () => {
    const admin = await signedInAdmin(t);
    const email = address();
    const invited = await admin.post('/admin/staff', {
      email,
      firstName: 'Ida',
      lastName: 'Neu',
      language: 'en',
      roleIds: [await roleId('Staff')],
    });
    await t.smtp!.waitFor((m) => m.to.includes(email));
    const again = await admin.post(`/admin/staff/${invited.body.id}/resend-invitation`);
    expect(again.status).toBe(200);
    await t.smtp!.waitFor(
      (m) => m.to.includes(email) && t.smtp!.mails.filter((x) => x.to.includes(email)).length === 2,
    );
    const active = await signedInAs(t, 'Staff');
    expect((await admin.post(`/admin/staff/${active.user.id}/resend-invitation`)).body.error.code).toBe(
      'ALREADY_ACTIVE',
    );
  });
});
