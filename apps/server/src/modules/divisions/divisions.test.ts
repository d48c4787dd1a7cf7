import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false, env: { DIVISIONS_LIMIT: '3' } });
});
afterAll(() => t?.close());

describe('divisions', () => {
  it('are added, listed by name, renamed and deleted by the data manager', async () => {
    const { client } = await signedInDataManager(t);
    const heizung = await client.post('/divisions', { name: 'Heizung' });
    expect(heizung.status).toBe(201);
    await client.post('/divisions', { name: 'Büro' });
    const list = await client.get('/divisions');
    expect(list.body.items.map((d: { name: string }) => d.name)).toEqual(['Büro', 'Heizung']);
    expect(list.body.limit).toBe(3);
    const renamed = await client.patch(`/divisions/${heizung.body.id}`, { name: 'Heizung & Sanitär' });
    expect(renamed.body.name).toBe('Heizung & Sanitär');
    expect((await client.delete(`/divisions/${heizung.body.id}`)).status).toBe(204);
    expect((await client.get('/divisions')).body.items).toHaveLength(1);
  });

  it('refuses a duplicate name (any case) and the plan limit with stable codes', async () => {
    const { client } = await signedInDataManager(t);
    await client.post('/divisions', { name: 'Elektro' });
    const dup = await client.post('/divisions', { name: 'ELEKTRO' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('DIVISION_EXISTS');
    await client.post('/divisions', { name: 'Büro' });
    await client.post('/divisions', { name: 'Lager' });
    const over = await client.post('/divisions', { name: 'Werkstatt' });
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('PLAN_LIMIT_REACHED');
    expect((await client.post('/divisions', { name: '  ' })).status).toBe(422);
  });

  it("answers 404 for another company's division and never lists it", async () => {
    const a = await signedInDataManager(t);
    const b = await signedInDataManager(t);
    const division = (await a.client.post('/divisions', { name: 'Geheim' })).body;
    expect((await b.client.patch(`/divisions/${division.id}`, { name: 'Meins' })).status).toBe(404);
    expect((await b.client.delete(`/divisions/${division.id}`)).status).toBe(404);
    expect((await b.client.get('/divisions')).body.items).toEqual([]);
    expect((await a.client.get('/divisions')).body.items[0].name).toBe('Geheim');
  });

  it('are read-only for employees, who see only the divisions assigned to them', async () => {
    const { client } = await signedInDataManager(t);
    const mine = (await client.post('/divisions', { name: 'Montage' })).body;
    await client.post('/divisions', { name: 'Buchhaltung' });
    const employee = (
      await client.post('/employees', {
        email: `monteur-${Date.now()}@firma.example`,
        firstName: 'Kai',
        lastName: 'Berg',
        language: 'de',
        divisionIds: [mine.id],
      })
    ).body;
    const { token } = await inviteToken(employee.id);
    const session = t.client();
    await session.post('/auth/set-password', {
      token,
      password: 'monteur-Pass-1',
      confirmPassword: 'monteur-Pass-1',
    });
    const login = await session.post('/auth/login', {
      email: employee.email,
      password: 'monteur-Pass-1',
      area: 'employee',
    });
    expect(login.status).toBe(200);
    const seen = await session.get('/divisions');
    expect(seen.body.items.map((d: { name: string }) => d.name)).toEqual(['Montage']);
    expect((await session.post('/divisions', { name: 'Eigener' })).status).toBe(403);
    expect((await session.delete(`/divisions/${mine.id}`)).status).toBe(403);
  });

  it('are closed to staff (403)', async () => {
    const staff = await signedInAs(t, 'Staff');
    expect((await staff.client.get('/divisions')).status).toBe(403);
  });
});

/** Issues a fresh invitation token for an employee, as the invitation mail would carry it. */
async function inviteToken(userId: string) {
  const { issueUserToken } = await import('../../core/user-tokens.ts');
  return { token: await issueUserToken(t.server.ctx.db, userId, 'set_password') };
}
