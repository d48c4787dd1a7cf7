import { DEFAULT_ROLES, RULE_PLACEHOLDERS } from '@werkwissen/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { signedInAs, signedInWithRules } from '../../../test/support/factories.ts';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { feedback, roles, userRoles } from '../../db/schema/index.ts';

/** The roles editor through the real server: its rules govern the next request, and its guards hold. */
let t: TestServer;
const db = () => t.server.ctx.db;

beforeAll(async () => {
  t = await startTestServer({ smtp: false, role: 'api' });
});
afterAll(() => t?.close());

const roleOf = async (kind: 'Administrator' | 'Staff' | 'DataManager' | 'Employee') =>
  (await db().select().from(roles).where(eq(roles.kind, kind)))[0]!;
/** The activity log entry of an action on a role of this name. */
async function logged(admin: ApiClient, action: string, name: string) {
  for (let i = 0; i < 50; i++) {
    const list = await admin.get(`/admin/activity-log?q=${action}&pageSize=100`);
    const entry = list.body.items.find(
      (e: { action: string; changes: { before: { name: string } | null } | null }) =>
        e.action === action && e.changes?.before?.name === name,
    );
    if (entry) return entry;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${action} entry for ${name}`);
}
const unique = () => `Rolle ${Math.random().toString(36).slice(2, 8)}`;

describe('a custom role edited on /admin/roles', () => {
  it('opens the feedback report to its staff holder and closes it the moment the right is revoked', async () => {
    const dm = await signedInAs(t, 'DataManager');
    await db().insert(feedback).values({
      companyId: dm.companyId!,
      chatName: 'C',
      origin: 'employee',
      givenBy: 'K',
      question: 'F?',
      answer: 'A.',
    });
    const admin = await signedInAdmin(t);
    const created = await admin.post('/admin/roles', {
      name: unique(),
      rules: [{ action: 'read', subject: ['admin', 'Feedback'] }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ isSystem: false, kind: null, holderCount: 0 });
    const staff = await signedInWithRules(t, 'Staff', [{ action: 'read', subject: 'admin' }]);
    await db().delete(userRoles).where(eq(userRoles.userId, staff.user.id));
    await db().insert(userRoles).values({ userId: staff.user.id, roleId: created.body.id });
    expect((await staff.client.get('/feedback')).status).toBe(200);
    expect((await staff.client.get('/admin/roles')).status).toBe(403);
    expect((await staff.client.get('/admin/staff')).status).toBe(403);

    const revoked = await admin.patch(`/admin/roles/${created.body.id}`, {
      rules: [{ action: 'read', subject: 'admin' }],
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.holderCount).toBe(1);
    const after = await staff.client.get('/feedback');
    expect(after.status).toBe(403);
    expect((await staff.client.get('/auth/me')).status).toBe(200);

    const holders = await admin.get(`/admin/roles/${created.body.id}/holders`);
    expect(holders.body.items.map((h: { id: string }) => h.id)).toEqual([staff.user.id]);
    // In the activity log with before and after (written once the answer is sent).
    const entry = await logged(admin, 'updateRole', created.body.name);
    expect(entry.changes.before.rules).toEqual([{ action: 'read', subject: ['admin', 'Feedback'] }]);
    expect(entry.changes.after.rules).toEqual([{ action: 'read', subject: 'admin' }]);
  });

  it('refuses to grant what the caller does not hold', async () => {
    const editor = await signedInWithRules(t, 'Staff', [
      { action: 'manage', subject: 'Role' },
      { action: 'read', subject: ['admin', 'Feedback'] },
    ]);
    const held = await editor.client.post('/admin/roles', {
      name: unique(),
      rules: [{ action: 'read', subject: 'Feedback' }],
    });
    expect(held.status).toBe(201);
    const beyond = await editor.client.post('/admin/roles', {
      name: unique(),
      rules: [{ action: 'manage', subject: 'all' }],
    });
    expect(beyond.status).toBe(403);
    expect(beyond.body.error.code).toBe('ROLE_GRANT_EXCEEDS_OWN');
    const widened = await editor.client.patch(`/admin/roles/${held.body.id}`, {
      rules: [{ action: ['read', 'delete'], subject: 'Feedback' }],
    });
    expect(widened.body.error.code).toBe('ROLE_GRANT_EXCEEDS_OWN');
    // Narrowing to one company of what they hold everywhere is theirs to give.
    const narrowed = await editor.client.patch(`/admin/roles/${held.body.id}`, {
      rules: [
        {
          action: 'read',
          subject: 'Feedback',
          conditions: { companyId: '00000000-0000-4000-8000-000000000001' },
        },
      ],
    });
    expect(narrowed.status).toBe(200);
    // Even the administrator does not hold a company's knowledge.
    const admin = await signedInAdmin(t);
    const knowledge = await admin.post('/admin/roles', {
      name: unique(),
      rules: [{ action: 'read', subject: 'Division' }],
    });
    expect(knowledge.body.error.code).toBe('ROLE_GRANT_EXCEEDS_OWN');
  });

  it("refuses `manage all` and `read all` from an administrator whose own rules withhold the companies' knowledge", async () => {
    const admin = await signedInAdmin(t);
    for (const rule of [
      { action: 'manage', subject: 'all' },
      { action: 'read', subject: 'all' },
      { action: 'read', subject: ['Feedback', 'all'] },
    ]) {
      const res = await admin.post('/admin/roles', { name: unique(), rules: [rule] });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('ROLE_GRANT_EXCEEDS_OWN');
      expect(res.body.error.details.rights).toEqual(expect.arrayContaining(['read Chat', 'read File']));
    }
    // The same rights with the administrator's own `cannot` rules are theirs to give.
    const copy = await admin.post('/admin/roles', {
      name: unique(),
      rules: [{ action: 'read', subject: 'all' }, ...DEFAULT_ROLES.Administrator.rules.slice(1)],
    });
    expect(copy.status).toBe(201);
    // Giving a staff member a role that grants it (stored by other means) is refused as well.
    const stored = (
      await db()
        .insert(roles)
        .values({ name: unique(), rules: [{ action: 'read', subject: 'all' }] })
        .returning({ id: roles.id })
    )[0]!;
    const member = await signedInAs(t, 'Staff');
    const given = await admin.patch(`/admin/staff/${member.user.id}`, {
      roleIds: [(await roleOf('Staff')).id, stored.id],
    });
    expect(given.body.error.code).toBe('ROLE_GRANT_EXCEEDS_OWN');
    expect((await member.client.get(`/admin/roles/${stored.id}`)).status).toBe(403);
  });

  it('refuses removing or moving a `cannot` rule that keeps a right the caller does not hold', async () => {
    const admin = await signedInAdmin(t);
    const rules = DEFAULT_ROLES.Administrator.rules;
    const role = (await admin.post('/admin/roles', { name: unique(), rules })).body;
    expect(role.rules).toEqual(rules);
    const removed = await admin.patch(`/admin/roles/${role.id}`, { rules: [rules[0], rules[2]] });
    expect(removed.status).toBe(403);
    expect(removed.body.error.code).toBe('ROLE_GRANT_EXCEEDS_OWN');
    expect(removed.body.error.details.rights).toEqual(
      expect.arrayContaining(['read Chat', 'delete Division']),
    );
    // CASL lets the later rule win: a `cannot` moved before the `can` no longer withholds anything.
    const moved = await admin.patch(`/admin/roles/${role.id}`, { rules: [rules[1], rules[0], rules[2]] });
    expect(moved.body.error.code).toBe('ROLE_GRANT_EXCEEDS_OWN');
    const narrowed = await admin.patch(`/admin/roles/${role.id}`, {
      rules: [...rules, { action: 'manage', subject: 'Feedback', inverted: true }],
    });
    expect(narrowed.status).toBe(200);
    expect((await admin.get(`/admin/roles/${role.id}`)).body.rules).toHaveLength(4);
  });

  it('refuses rules the server cannot read, and names taken', async () => {
    const admin = await signedInAdmin(t);
    const regex = await admin.post('/admin/roles', {
      name: unique(),
      rules: [{ action: 'read', subject: 'Feedback', conditions: { companyId: { $regex: '.' } } }],
    });
    expect(regex.status).toBe(422);
    expect(regex.body.error.code).toBe('ROLE_RULES_INVALID');
    // A NUL byte in a condition's value never reaches the database (jsonb refuses it with a 500).
    const nul = await admin.post('/admin/roles', {
      name: unique(),
      rules: [{ action: 'read', subject: 'Feedback', conditions: { companyId: 'a\u0000b' } }],
    });
    expect(nul.status).toBe(422);
    expect(nul.body.error.details.fields[0]).toMatchObject({
      field: 'rules.0.conditions',
      code: 'validation.controlCharacters',
    });
    const taken = await admin.post('/admin/roles', { name: 'staff', rules: [] });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('ROLE_NAME_TAKEN');
  });

  it('deletes a custom role only when nobody holds it', async () => {
    const admin = await signedInAdmin(t);
    const role = (await admin.post('/admin/roles', { name: unique(), rules: [] })).body;
    const holder = await signedInAs(t, 'Staff');
    await db().insert(userRoles).values({ userId: holder.user.id, roleId: role.id });
    const inUse = await admin.delete(`/admin/roles/${role.id}`);
    expect(inUse.body.error.code).toBe('ROLE_IN_USE');
    await db().delete(userRoles).where(eq(userRoles.roleId, role.id));
    expect((await admin.delete(`/admin/roles/${role.id}`)).status).toBe(204);
    expect((await admin.get(`/admin/roles/${role.id}`)).status).toBe(404);
  });
});

describe('system roles', () => {
  it('are reset to their defaults, never deleted or renamed', async () => {
    const admin = await signedInAdmin(t);
    const employee = await roleOf('Employee');
    const narrowed = DEFAULT_ROLES.Employee.rules.filter((r) => r.subject !== 'Tag');
    const edited = await admin.patch(`/admin/roles/${employee.id}`, { rules: narrowed });
    expect(edited.status).toBe(200);
    expect(edited.body.rules).toEqual(narrowed);
    expect(
      (await admin.patch(`/admin/roles/${employee.id}`, { name: 'Mitarbeitende' })).body.error.code,
    ).toBe('ROLE_SYSTEM');
    expect((await admin.delete(`/admin/roles/${employee.id}`)).body.error.code).toBe('ROLE_SYSTEM');
    const reset = await admin.post(`/admin/roles/${employee.id}/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body.rules).toEqual(DEFAULT_ROLES.Employee.rules);
    const custom = (await admin.post('/admin/roles', { name: unique(), rules: [] })).body;
    expect((await admin.post(`/admin/roles/${custom.id}/reset`)).body.error.code).toBe('ROLE_NO_DEFAULTS');
  });

  it("keep a company role's own-company condition when its actions change", async () => {
    const admin = await signedInAdmin(t);
    const dm = await roleOf('DataManager');
    const rules = DEFAULT_ROLES.DataManager.rules.map((r) =>
      r.subject === 'User' ? { ...r, action: 'read' as const } : r,
    );
    const saved = await admin.patch(`/admin/roles/${dm.id}`, { rules });
    expect(saved.status).toBe(200);
    expect(saved.body.rules.find((r: { subject: string }) => r.subject === 'User')).toEqual({
      action: 'read',
      subject: 'User',
      conditions: { companyId: RULE_PLACEHOLDERS.companyId, kind: 'Employee' },
    });
    await admin.post(`/admin/roles/${dm.id}/reset`);
  });
});

describe('the guards', () => {
  it('refuses changes to a role the caller holds', async () => {
    const admin = await signedInAdmin(t);
    const own = await roleOf('Administrator');
    const res = await admin.patch(`/admin/roles/${own.id}`, { description: 'Neu' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ROLE_OWN');
    expect((await admin.post(`/admin/roles/${own.id}/reset`)).body.error.code).toBe('ROLE_OWN');
    const me = (await admin.get('/auth/me')).body.userData;
    const self = await admin.patch(`/admin/staff/${me.id}`, { roleIds: [(await roleOf('Staff')).id] });
    expect(self.body.error.code).toBe('ROLE_OWN');
  });

  it('keeps the last active administrator: not deactivated, deleted or demoted', async () => {
    // A staff member with the administrator's rights in a custom role, against the seeded (only) administrator.
    const deputy = await signedInWithRules(t, 'Staff', DEFAULT_ROLES.Administrator.rules);
    const [administrator] = (await deputy.client.get('/admin/staff?q=admin%40test.example')).body.items;
    expect(administrator.roles.map((r: { name: string }) => r.name)).toEqual(['Administrator']);
    for (const res of [
      await deputy.client.post(`/admin/staff/${administrator.id}/deactivate`),
      await deputy.client.delete(`/admin/staff/${administrator.id}`),
      await deputy.client.patch(`/admin/staff/${administrator.id}`, { roleIds: [deputy.role.id] }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('LAST_ADMINISTRATOR');
    }
    expect((await signedInAdmin(t).then((c) => c.get('/auth/me'))).status).toBe(200);
    // With a second administrator, the first may be demoted.
    const second = await deputy.client.post('/admin/staff', {
      email: `zweite-${Date.now()}@betreiber.example`,
      firstName: 'Zoe',
      lastName: 'Zweit',
      language: 'de',
      roleIds: [(await roleOf('Administrator')).id],
    });
    expect(second.body).toMatchObject({ kind: 'Administrator', status: 'invited' });
    // An invited administrator cannot sign in yet: the first is still the last active one.
    expect((await deputy.client.post(`/admin/staff/${administrator.id}/deactivate`)).body.error.code).toBe(
      'LAST_ADMINISTRATOR',
    );
  });

  it('refuses a change that would leave nobody who can manage roles', async () => {
    const { assertPlatformStillGoverned } = await import('./role-guards.ts');
    const withoutRoles = DEFAULT_ROLES.Administrator.rules.concat({
      action: 'manage',
      subject: 'Role',
      inverted: true,
    });
    const outcome = await db()
      .transaction(async (tx) => {
        await tx.update(roles).set({ rules: withoutRoles }).where(eq(roles.kind, 'Administrator'));
        await tx.update(roles).set({ rules: [] }).where(sql`kind is null`);
        await assertPlatformStillGoverned(tx);
      })
      .catch((error: { code?: string }) => error.code);
    expect(outcome).toBe('ROLE_LOCKOUT');
    // Rolled back: the administrator still manages roles.
    expect((await (await signedInAdmin(t)).get('/admin/roles')).status).toBe(200);
  });
});
