import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import {
  signedInAdmin,
  signedInDataManager,
  startTestServer,
  type TestServer,
} from '../../../test/support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false, env: { TRIAL_DAYS: '30' } });
});
afterAll(() => t?.close());

describe('GET /dashboard', () => {
  it("shows the data manager's own company, trial and next steps", async () => {
    const { client } = await signedInDataManager(t, { companyName: 'Elektro Weber' });
    const res = await client.get('/dashboard');
    expect(res.status).toBe(200);
    expect(res.body.company.name).toBe('Elektro Weber');
    expect(res.body.plan).toMatchObject({
      plan: 'trial',
      status: 'active',
      daysRemaining: 30,
      daysTotal: 30,
    });
    expect(res.body.nextSteps).toEqual([
      { step: 'verifyEmail', done: false },
      { step: 'completeProfile', done: true },
      { step: 'uploadDocuments', done: false },
    ]);
  });

  it('never shows another company, and is refused to employees (403)', async () => {
    const a = await signedInDataManager(t, { companyName: 'Firma A' });
    const b = await signedInDataManager(t, { companyName: 'Firma B' });
    expect((await a.client.get('/dashboard')).body.company.name).toBe('Firma A');
    expect((await b.client.get('/dashboard')).body.company.name).toBe('Firma B');
    const employee = await signedInAs(t, 'Employee');
    expect((await employee.client.get('/dashboard')).status).toBe(403);
  });
});

describe('GET /admin/dashboard', () => {
  it('counts companies, users by kind and mails by status for the operator only', async () => {
    await signedInDataManager(t);
    const admin = await signedInAdmin(t);
    const res = await admin.get('/admin/dashboard');
    expect(res.status).toBe(200);
    expect(res.body.companies).toBeGreaterThanOrEqual(1);
    expect(res.body.users.Administrator).toBe(1);
    expect(res.body.users.DataManager).toBeGreaterThanOrEqual(1);
    expect(res.body.signInsLast7Days).toBeGreaterThanOrEqual(2);
    const { client } = await signedInDataManager(t);
    expect((await client.get('/admin/dashboard')).status).toBe(403);
  });
});
