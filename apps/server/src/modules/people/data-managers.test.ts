import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDivision, insertPassage } from '../../../test/support/chat-fixtures.ts';
import { createUser, signedInAs } from '../../../test/support/factories.ts';
import { signedInAdmin, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { companies, companyLogos, divisions, files, users } from '../../db/schema/index.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const address = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@firma.example`;
const manager = (overrides: Record<string, unknown> = {}) => ({
  email: address('dm'),
  firstName: 'Dana',
  lastName: 'Berg',
  language: 'de',
  companyName: `Berg Sanitär ${Math.random().toString(36).slice(2, 6)}`,
  ...overrides,
});

describe('data managers in the back office', () => {
  it('are added with a company and a trial, invited by mail, and sign in after setting their password', async () => {
    const admin = await signedInAdmin(t);
    const body = manager();
    const created = await admin.post('/admin/users/data-managers', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: body.email, status: 'invited', plan: 'trial' });
    expect(created.body.companyName).toBe(body.companyName);
    const again = await admin.post('/admin/users/data-managers', manager({ email: body.email }));
    expect(again.body.error.code).toBe('EMAIL_TAKEN');
    const mail = await t.smtp!.waitFor((m) => m.to.includes(body.email));
    expect(mail.text).toContain(body.companyName);
    const token = new URL(mail.link!).searchParams.get('token');
    const client = t.client();
    const set = await client.post('/auth/set-password', {
      token,
      password: 'dana-Pass-123',
      confirmPassword: 'dana-Pass-123',
    });
    expect(set.body.loginPath).toBe('/login');
    const login = await client.post('/auth/login', { email: body.email, password: 'dana-Pass-123' });
    expect(login.status).toBe(200);
    const listed = await admin.get(`/admin/users/data-managers?q=${encodeURIComponent(body.email)}`);
    expect(listed.body.items).toEqual([expect.objectContaining({ id: created.body.id, status: 'active' })]);
  });

  it('are searched by e-mail and company, sorted and paged; an unknown address finds nobody', async () => {
    const admin = await signedInAdmin(t);
    const tag = Math.random().toString(36).slice(2, 8);
    for (const last of ['Zander', 'Adler', 'Meier']) {
      await admin.post(
        '/admin/users/data-managers',
        manager({ lastName: last, companyName: `Suche ${tag} ${last}` }),
      );
    }
    const sorted = await admin.get(`/admin/users/data-managers?q=${tag}&sort=lastName&pageSize=5`);
    expect(sorted.body.items.map((m: { lastName: string }) => m.lastName)).toEqual([
      'Adler',
      'Meier',
      'Zander',
    ]);
    const paged = await admin.get(`/admin/users/data-managers?q=${tag}&sort=-lastName&pageSize=5&page=1`);
    expect(paged.body.items[0].lastName).toBe('Zander');
    expect(paged.body.total).toBe(3);
    const nobody = await admin.get('/admin/users/data-managers?q=niemand@nirgends.example');
    expect(nobody.body).toMatchObject({ items: [], total: 0 });
  });

  it('are edited, with their company name', async () => {
    const admin = await signedInAdmin(t);
    const { id } = (await admin.post('/admin/users/data-managers', manager())).body;
    const edited = await admin.patch(`/admin/users/data-managers/${id}`, {
      firstName: 'Dora',
      companyName: 'Neuer Name GmbH',
    });
    expect(edited.body).toMatchObject({ firstName: 'Dora', companyName: 'Neuer Name GmbH' });
    const invalid = await admin.patch(`/admin/users/data-managers/${id}`, { firstName: '' });
    expect(invalid.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('once deactivated cannot sign in (with a clear message), lose their sessions and keys, and come back', async () => {
    const admin = await signedInAdmin(t);
    const dm = await signedInAs(t, 'DataManager');
    const key = (await dm.client.post('/api-keys', { name: 'Skript' })).body.token as string;
    const viaKey = t.client();
    viaKey.bearer = key;
    expect((await viaKey.get('/divisions')).status).toBe(200);

    const off = await admin.post(`/admin/users/data-managers/${dm.user.id}/deactivate`);
    expect(off.body.status).toBe('deactivated');
    expect((await dm.client.get('/divisions')).status).toBe(401);
    expect((await viaKey.get('/divisions')).status).toBe(401);
    const refused = await t.client().post('/auth/login', { email: dm.user.email, password: dm.password });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'ACCOUNT_DEACTIVATED',
      message: expect.stringMatching(/deaktiviert/),
    });
    // Without the password nobody learns that the account exists, let alone that it is switched off.
    const guess = await t.client().post('/auth/login', { email: dm.user.email, password: 'falsch-Pass-1' });
    expect(guess.body.error.code).toBe('INVALID_CREDENTIALS');

    const on = await admin.post(`/admin/users/data-managers/${dm.user.id}/reactivate`);
    expect(on.body.status).toBe('active');
    expect(
      (await t.client().post('/auth/login', { email: dm.user.email, password: dm.password })).status,
    ).toBe(200);
    expect((await viaKey.get('/divisions')).status).toBe(200);
  });

  it('are deleted with their company and all its data, files in storage too, after a typed confirmation', async () => {
    const admin = await signedInAdmin(t);
    const dm = await createUser(t, 'DataManager');
    const employee = await createUser(t, 'Employee', { companyId: dm.companyId });
    const companyId = dm.companyId!;
    const [company] = await t.server.ctx.db.select().from(companies).where(eq(companies.id, companyId));
    const division = await insertDivision(t, companyId, 'Heizung');
    const { file } = await insertPassage(t, {
      companyId,
      divisionId: division.id,
      text: 'Heizung entlüften',
    });
    const staged = await t.server.ctx.storage.stage(Readable.from(Buffer.from('x'.repeat(100))));
    await t.server.ctx.storage.commit(staged.key, file.storageKey);
    expect(await t.storage.keys(file.storageKey)).toEqual([file.storageKey]);
    // The company's logo, kept in the storage too.
    const logo = await t.server.ctx.storage.stage(Readable.from(Buffer.from('png')));
    const logoKey = `${companyId}/branding/logo-test.png`;
    await t.server.ctx.storage.commit(logo.key, logoKey);
    await t.server.ctx.db
      .insert(companyLogos)
      .values({ companyId, storageKey: logoKey, sha256: logo.sha256, width: 1, height: 1 });

    const wrong = await admin.delete(`/admin/users/data-managers/${dm.user.id}?confirmation=Falsche%20Firma`);
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe('CONFIRMATION_MISMATCH');
    expect((await admin.get(`/admin/users/data-managers/${dm.user.id}`)).status).toBe(200);

    const done = await admin.delete(
      `/admin/users/data-managers/${dm.user.id}?confirmation=${encodeURIComponent(company!.name!)}`,
    );
    expect(done.status).toBe(204);
    const db = t.server.ctx.db;
    expect(await db.select().from(companies).where(eq(companies.id, companyId))).toEqual([]);
    expect(await db.select().from(users).where(eq(users.id, employee.user.id))).toEqual([]);
    expect(await db.select().from(divisions).where(eq(divisions.companyId, companyId))).toEqual([]);
    expect(await db.select().from(files).where(eq(files.companyId, companyId))).toEqual([]);
    expect(await t.storage.keys(file.storageKey)).toEqual([]);
    expect(await t.storage.keys(logoKey)).toEqual([]);
    expect((await admin.get(`/admin/users/data-managers/${dm.user.id}`)).status).toBe(404);
  });

  it('are confirmed for deletion by their e-mail too', async () => {
    const admin = await signedInAdmin(t);
    const dm = await createUser(t, 'DataManager');
    const res = await admin.delete(
      `/admin/users/data-managers/${dm.user.id}?confirmation=${encodeURIComponent(dm.user.email.toUpperCase())}`,
    );
    expect(res.status).toBe(204);
  });

  it('show company, plan, storage, divisions, recent sign-ins and activity on the detail page', async () => {
    const admin = await signedInAdmin(t);
    const dm = await signedInAs(t, 'DataManager');
    await dm.client.post('/divisions', { name: 'Kundendienst' });
    const employee = await createUser(t, 'Employee', { companyId: dm.companyId });
    const detail = await admin.get(`/admin/users/data-managers/${dm.user.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      company: { id: dm.companyId, suspendedAt: null },
      storage: { usedBytes: 0 },
      divisions: [{ name: 'Kundendienst', files: 0, bytes: 0 }],
      recentSignIns: [expect.objectContaining({ ip: expect.any(String) })],
    });
    expect(detail.body.storage.limitBytes).toBeGreaterThan(0);
    expect(detail.body.employees).toBe(1);
    expect(detail.body.team).toEqual([
      expect.objectContaining({ id: employee.user.id, email: employee.user.email, status: 'active' }),
    ]);
    expect(detail.body.recentActivity.map((a: { action: string }) => a.action)).toEqual(
      expect.arrayContaining(['createDivision', 'login']),
    );
  });

  it('are imported from CSV: good rows are added, each bad row is reported with its line and reason', async () => {
    const admin = await signedInAdmin(t);
    const taken = await createUser(t, 'DataManager');
    const good = [address('import-a'), address('import-b')];
    const csv = [
      'E-Mail;Vorname;Nachname;Firma;Sprache',
      `${good[0]};Ada;Lang;Lang GmbH;de`,
      'keine-adresse;Bo;Kurz;Kurz KG;de',
      `${taken.user.email};Cem;Alt;Alt AG;en`,
      `${good[1]};Dai;Neu;;fr`,
    ].join('\n');
    const first = await admin.post('/admin/users/data-managers/import', { csv });
    expect(first.status).toBe(200);
    expect(first.body.created).toBe(1);
    expect(first.body.rejected).toEqual([
      { row: 3, email: 'keine-adresse', errors: [expect.objectContaining({ field: 'email' })] },
      {
        row: 4,
        email: taken.user.email,
        errors: [expect.objectContaining({ field: 'email', code: 'errors.EMAIL_TAKEN' })],
      },
      {
        row: 5,
        email: good[1],
        errors: [expect.objectContaining({ field: 'companyName', code: 'validation.required' })],
      },
    ]);
    // The same file again: the row added the first time is a reported row now, not a failure of the import.
    const second = await admin.post('/admin/users/data-managers/import', { csv });
    expect(second.body.created).toBe(0);
    expect(second.body.rejected.map((r: { row: number }) => r.row)).toEqual([2, 3, 4, 5]);
    const headerless = await admin.post('/admin/users/data-managers/import', { csv: 'a;b\n1;2' });
    expect(headerless.body.error.details.fields[0].code).toBe('validation.csvHeader');
  });

  it('are not added by staff, who read them', async () => {
    const staff = await signedInAs(t, 'Staff');
    expect((await staff.client.get('/admin/users/data-managers')).status).toBe(200);
    expect((await staff.client.post('/admin/users/data-managers', manager())).status).toBe(403);
    expect(
      (
        await staff.client.post('/admin/users/data-managers/import', {
          csv: 'email,firstName,lastName,companyName\n',
        })
      ).status,
    ).toBe(403);
  });
});
