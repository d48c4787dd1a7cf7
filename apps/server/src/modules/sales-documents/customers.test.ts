import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../../../test/support/factories.ts';
import { signedInDataManager, startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { CUSTOMER, customerOf, draftOf } from './sales-document-fixtures.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtp: false });
});
afterAll(() => t?.close());

describe('customers', () => {
  it('are created, listed, searched, changed and deleted by the data manager, in their written form', async () => {
    const dm = await signedInDataManager(t);
    const created = await dm.client.post('/handwerk/customers', {
      ...CUSTOMER,
      vatId: 'de 136 695 976',
      email: 'Schneider@Kunde.example',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Familie Schneider',
      vatId: 'DE136695976',
      email: 'schneider@kunde.example',
      documentCount: 0,
    });
    const id = created.body.id;
    await customerOf(dm.client, { name: 'Bäckerei Wolf', city: 'Cottbus', postalCode: '03046' });

    const all = await dm.client.get('/handwerk/customers');
    expect(all.body.items.map((c: { name: string }) => c.name)).toEqual([
      'Bäckerei Wolf',
      'Familie Schneider',
    ]);
    const found = await dm.client.get('/handwerk/customers?q=potsd');
    expect(found.body).toMatchObject({ total: 1, items: [{ id }] });

    const changed = await dm.client.put(`/handwerk/customers/${id}`, {
      ...CUSTOMER,
      city: 'Berlin',
      postalCode: '10115',
    });
    expect(changed.status).toBe(200);
    expect((await dm.client.get(`/handwerk/customers/${id}`)).body.city).toBe('Berlin');

    expect((await dm.client.delete(`/handwerk/customers/${id}`)).status).toBe(204);
    expect((await dm.client.get(`/handwerk/customers/${id}`)).status).toBe(404);
  });

  it('refuses invalid fields with the field’s message and saves nothing', async () => {
    const dm = await signedInDataManager(t);
    for (const [field, value, message] of [
      ['name', ' ', 'validation.required'],
      ['vatId', 'DE123', 'validation.vatId'],
      ['postalCode', '1234', 'validation.postalCode'],
      ['email', 'kein-at', 'validation.email'],
      ['country', 'Deutschland', 'validation.country'],
    ] as const) {
      const res = await dm.client.post('/handwerk/customers', { ...CUSTOMER, [field]: value });
      expect(res.status, field).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details), field).toContain(field);
      expect(JSON.stringify(res.body.error.details), field).toContain(message.split('.')[1]!.slice(0, 5));
    }
    expect((await dm.client.get('/handwerk/customers')).body.total).toBe(0);
  });

  it('keeps a customer who has documents (CUSTOMER_IN_USE)', async () => {
    const dm = await signedInDataManager(t);
    const id = await customerOf(dm.client);
    await draftOf(dm.client, id, 'offer');
    const res = await dm.client.delete(`/handwerk/customers/${id}`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CUSTOMER_IN_USE');
    expect((await dm.client.get(`/handwerk/customers/${id}`)).body.documentCount).toBe(1);
  });

  it('answers 401 without a session, 403 to an employee, 404 for another company’s customer', async () => {
    const dm = await signedInDataManager(t);
    const id = await customerOf(dm.client);
    expect((await t.client().get('/handwerk/customers')).status).toBe(401);
    const employee = await signedInAs(t, 'Employee');
    expect((await employee.client.get('/handwerk/customers')).status).toBe(403);
    const other = await signedInDataManager(t);
    expect((await other.client.get(`/handwerk/customers/${id}`)).status).toBe(404);
    expect((await other.client.put(`/handwerk/customers/${id}`, CUSTOMER)).status).toBe(404);
    expect((await other.client.delete(`/handwerk/customers/${id}`)).status).toBe(404);
    expect((await other.client.get('/handwerk/customers')).body.total).toBe(0);
  });
});
