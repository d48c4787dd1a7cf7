import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChat, insertDivision, insertVisitor } from '../../../test/support/chat-fixtures.ts';
import { createUser, signedInAs } from '../../../test/support/factories.ts';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

/** A public chat of the company with a share link, as the data manager would publish it. */
async function sharedChat(companyId: string, ownerId: string) {
  const division = await insertDivision(t, companyId);
  const chat = await insertChat(t, { companyId, ownerId, name: 'Kundenfragen', divisionIds: [division.id] });
  const token = `link-${crypto.randomUUID()}`;
  await t.server.ctx.db.execute(
    sql`update chats set visibility = 'public', share_token = ${token} where id = ${chat.id}`,
  );
  return { chat, token };
}

describe('companies in the back office', () => {
  it('are listed with plan, users, storage and last activity', async () => {
    const admin = await signedInAdmin(t);
    const dm = await signedInAs(t, 'DataManager');
    await createUser(t, 'Employee', { companyId: dm.companyId });
    await dm.client.post('/divisions', { name: 'Lager' });
    const [company] = (await admin.get('/admin/companies?sort=-lastActivityAt&pageSize=5')).body.items;
    expect(company).toMatchObject({
      id: dm.companyId,
      dataManagerEmail: dm.user.email,
      users: 2,
      storageBytes: 0,
      suspendedAt: null,
    });
    expect(company.lastActivityAt).not.toBeNull();
  });

  it('once suspended refuse sign-in, sessions, API keys and public chats with clear messages; resume restores all', async () => {
    const admin = await signedInAdmin(t);
    const dm = await signedInAs(t, 'DataManager');
    const employee = await signedInAs(t, 'Employee', { companyId: dm.companyId });
    const key = (await dm.client.post('/api-keys', { name: 'Skript' })).body.token as string;
    const viaKey = t.client();
    viaKey.bearer = key;
    const { token } = await sharedChat(dm.companyId!, dm.user.id);
    expect((await t.client().get(`/public/chats/${token}`)).status).toBe(200);

    const suspended = await admin.post(`/admin/companies/${dm.companyId}/suspend`, {
      reason: 'Rechnung offen',
    });
    expect(suspended.body).toMatchObject({
      suspendedReason: 'Rechnung offen',
      suspendedAt: expect.any(String),
    });
    const noReason = await admin.post(`/admin/companies/${dm.companyId}/suspend`, { reason: '' });
    expect(noReason.body.error.code).toBe('VALIDATION_FAILED');

    expect((await dm.client.get('/divisions')).status).toBe(401);
    expect((await employee.client.get('/chats')).status).toBe(401);
    expect((await viaKey.get('/divisions')).status).toBe(401);
    const login = await t.client().post('/auth/login', { email: dm.user.email, password: dm.password });
    expect(login.status).toBe(403);
    expect(login.body.error).toMatchObject({
      code: 'COMPANY_SUSPENDED',
      message: expect.stringContaining('gesperrt'),
    });
    const visitor = t.client();
    visitor.language = 'en';
    const closed = await visitor.get(`/public/chats/${token}`);
    expect(closed.status).toBe(403);
    expect(closed.body.error).toMatchObject({
      code: 'PUBLIC_CHAT_SUSPENDED',
      message: 'This chat is not available at the moment.',
    });
    expect((await visitor.post(`/public/chats/${token}/visitor`, {})).body.error.code).toBe(
      'PUBLIC_CHAT_SUSPENDED',
    );

    const resumed = await admin.post(`/admin/companies/${dm.companyId}/resume`);
    expect(resumed.body).toMatchObject({ suspendedAt: null, suspendedReason: null });
    expect(
      (await t.client().post('/auth/login', { email: dm.user.email, password: dm.password })).status,
    ).toBe(200);
    expect((await viaKey.get('/divisions')).status).toBe(200);
    expect((await t.client().get(`/public/chats/${token}`)).status).toBe(200);

    // Both are in the activity log, with what changed.
    const log = await admin.get(`/admin/activity-log?q=Company`);
    const entries = log.body.items.filter(
      (e: { endpoint: string; statusCode: number }) =>
        e.endpoint.includes('/admin/companies/') && e.statusCode === 200,
    );
    expect(entries.slice(0, 2).map((e: { action: string }) => e.action)).toEqual([
      'resumeCompany',
      'suspendCompany',
    ]);
    expect(entries[1].changes).toEqual({
      before: { suspendedAt: null, suspendedReason: null },
      after: { suspendedAt: expect.any(String), suspendedReason: 'Rechnung offen' },
    });
  });

  it('are suspended by the administrator only, not by staff who read them', async () => {
    const staff = await signedInAs(t, 'Staff');
    const dm = await createUser(t, 'DataManager');
    expect((await staff.client.get('/admin/companies')).status).toBe(200);
    const refused = await staff.client.post(`/admin/companies/${dm.companyId}/suspend`, { reason: 'Test' });
    expect(refused.body.error.code).toBe('FORBIDDEN');
  });
});

describe('public users', () => {
  it('are the visitors who left a name with an e-mail or phone, one row per person with their chats', async () => {
    const admin = await signedInAdmin(t);
    const dm = await createUser(t, 'DataManager');
    const companyId = dm.companyId!;
    const one = await insertChat(t, { companyId, ownerId: dm.user.id, name: 'Heizung' });
    const two = await insertChat(t, { companyId, ownerId: dm.user.id, name: 'Lüftung' });
    const email = `vera-${crypto.randomUUID().slice(0, 8)}@besuch.example`;
    await insertVisitor(t, { companyId, chatId: one.id, name: 'Vera Gast', email });
    const latest = await insertVisitor(t, {
      companyId,
      chatId: two.id,
      name: 'Vera Gast',
      email: email.toUpperCase(),
    });
    await insertVisitor(t, { companyId, chatId: one.id, name: 'Ohne Kontakt' });
    await insertVisitor(t, { companyId, chatId: one.id, phone: '+49 151 000' });

    const list = await admin.get(`/admin/users/public-users?q=${encodeURIComponent(email)}`);
    expect(list.body.total).toBe(1);
    expect(list.body.items[0]).toMatchObject({
      id: latest.id,
      name: 'Vera Gast',
      companyId,
      chats: [
        { id: one.id, name: 'Heizung' },
        { id: two.id, name: 'Lüftung' },
      ],
    });
    expect((await admin.get('/admin/users/public-users?q=Ohne%20Kontakt')).body.total).toBe(0);
    const detail = await admin.get(`/admin/users/public-users/${latest.id}`);
    expect(detail.body.chatUse.map((c: { name: string }) => c.name).sort()).toEqual(['Heizung', 'Lüftung']);
    expect(detail.body.chatUse[0]).toMatchObject({ questions: 0 });
  });
});
