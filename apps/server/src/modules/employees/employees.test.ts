import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { EMPLOYEES_LIMIT: '2' } });
});
afterAll(() => t?.close());

async function verifiedManager() {
  const dm = await signedInDataManager(t, { language: 'en' });
  const mail = await t.smtp!.waitFor((m) => m.to.includes(dm.email) && m.link?.includes('/verify?') === true);
  await dm.client.post('/auth/verify-email', { token: new URL(mail.link!).searchParams.get('token') });
  return dm;
}

const employeeBody = (overrides: Record<string, unknown> = {}) => ({
  email: `ma-${Math.random().toString(36).slice(2)}@firma.example`,
  firstName: 'Mia',
  lastName: 'Koch',
  language: 'de',
  divisionIds: [],
  ...overrides,
});

describe('employees', () => {
  it('are invited by mail, set their password from the link and sign in at the employee area', async () => {
    const { client } = await verifiedManager();
    const division = (await client.post('/divisions', { name: 'Kundendienst' })).body;
    const created = await client.post('/employees', employeeBody({ divisionIds: [division.id] }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'invited',
      divisions: [{ id: division.id, name: 'Kundendienst' }],
    });
    const mail = await t.smtp!.waitFor((m) => m.to.includes(created.body.email));
    expect(mail.subject).toContain('eingeladen');
    expect(mail.link).toContain('/setPassword?token=');
    // Nobody asked for an invitation: it names who invited to which company and closes fittingly.
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Jörg Müller');
      expect(part).toContain('Müller Haustechnik GmbH');
      expect(part).toContain('Falls Sie diese Einladung nicht erwartet haben');
      expect(part).not.toContain('angefordert');
    }
    const token = new URL(mail.link!).searchParams.get('token');
    const session = t.client();
    const set = await session.post('/auth/set-password', {
      token,
      password: 'mia-Pass-123',
      confirmPassword: 'mia-Pass-123',
    });
    expect(set.status).toBe(200);
    // The page goes on to the employee sign-in (not the data managers'), with the address filled in.
    expect(set.body).toMatchObject({ email: created.body.email, loginPath: '/employee/login' });
    const login = await session.post('/auth/login', {
      email: created.body.email,
      password: 'mia-Pass-123',
      area: 'employee',
    });
    expect(login.status).toBe(200);
    expect(login.body.userRole).toBe('Employee');
    const listed = await client.get('/employees');
    expect(listed.body.items.find((e: { id: string }) => e.id === created.body.id).status).toBe('active');
    expect((await client.post(`/employees/${created.body.id}/resend-invitation`)).body).toBeDefined();
    const again = await client.post(`/employees/${created.body.id}/resend-invitation`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ALREADY_ACTIVE');
  });

  it('wait with their invitation until the data manager has confirmed their own address', async () => {
    const dm = await signedInDataManager(t, { companyName: '', firstName: 'Ada', lastName: 'Berg' });
    const created = (await dm.client.post('/employees', employeeBody())).body;
    await new Promise((r) => setTimeout(r, 1500));
    expect(t.smtp!.mails.some((m) => m.to.includes(created.email))).toBe(false);
    const verify = await t.smtp!.waitFor(
      (m) => m.to.includes(dm.email) && m.link?.includes('/verify?') === true,
    );
    await dm.client.post('/auth/verify-email', { token: new URL(verify.link!).searchParams.get('token') });
    const invitation = await t.smtp!.waitFor(
      (m) => m.to.includes(created.email) && m.link?.includes('/setPassword?') === true,
    );
    // Without a company name the invitation still says who invited.
    expect(invitation.text).toContain('Ada Berg');
    expect(invitation.text).not.toContain('{{');
    expect(invitation.text).not.toContain('angefordert');
  });

  it('can be edited (divisions replaced), searched and deleted', async () => {
    const { client } = await verifiedManager();
    const a = (await client.post('/divisions', { name: 'A' })).body;
    const b = (await client.post('/divisions', { name: 'B' })).body;
    const created = (
      await client.post('/employees', employeeBody({ lastName: 'Zimmermann', divisionIds: [a.id] }))
    ).body;
    const updated = await client.patch(`/employees/${created.id}`, { firstName: 'Max', divisionIds: [b.id] });
    expect(updated.body).toMatchObject({ firstName: 'Max', divisions: [{ id: b.id, name: 'B' }] });
    const found = await client.get('/employees?q=zimmer');
    expect(found.body.items.map((e: { id: string }) => e.id)).toEqual([created.id]);
    expect((await client.delete(`/employees/${created.id}`)).status).toBe(204);
    expect((await client.get('/employees?q=zimmer')).body.total).toBe(0);
  });

  it('refuse a taken address, the plan limit and divisions of another company', async () => {
    const { client } = await verifiedManager();
    const other = await verifiedManager();
    const foreign = (await other.client.post('/divisions', { name: 'Fremd' })).body;
    const bad = await client.post('/employees', employeeBody({ divisionIds: [foreign.id] }));
    expect(bad.status).toBe(404);
    const first = await client.post('/employees', employeeBody());
    expect(
      (await client.post('/employees', employeeBody({ email: first.body.email.toUpperCase() }))).body.error
        .code,
    ).toBe('EMAIL_TAKEN');
    await client.post('/employees', employeeBody());
    const over = await client.post('/employees', employeeBody());
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('PLAN_LIMIT_REACHED');
  });

  it("answer 404 for another company's employee and never list them", async () => {
    const a = await verifiedManager();
    const b = await verifiedManager();
    const employee = (await a.client.post('/employees', employeeBody())).body;
    expect((await b.client.get(`/employees/${employee.id}`)).status).toBe(404);
    expect((await a.client.get(`/employees/${employee.id}`)).body.email).toBe(employee.email);
    expect((await b.client.patch(`/employees/${employee.id}`, { firstName: 'X' })).status).toBe(404);
    expect((await b.client.delete(`/employees/${employee.id}`)).status).toBe(404);
    expect((await b.client.post(`/employees/${employee.id}/resend-invitation`)).status).toBe(404);
    expect((await b.client.get('/employees')).body.items).toEqual([]);
  });

  it('are managed only by data managers (403 for employees and staff)', async () => {
    const employee = await signedInAs(t, 'Employee');
    expect((await employee.client.get('/employees')).status).toBe(403);
    const staff = await signedInAs(t, 'Staff');
    expect((await staff.client.post('/employees', employeeBody())).status).toBe(403);
  });
});
