import { authContracts, roleContracts, staffContracts } from '@werkwissen/shared';
import { describe, expect, it } from 'vitest';
import { apiError, FakeApi, page } from './fake-api.ts';

const member = {
  id: '3e4f5061-7283-4d94-9ea5-c6d7e8f9a0b1',
  email: 'lea@betreiber.example',
  firstName: 'Lea',
  lastName: 'Brandt',
  kind: 'Staff' as const,
  language: 'en' as const,
  status: 'invited' as const,
  roles: [],
  lastSignInAt: null,
  createdAt: '2025-05-01T10:00:00.000Z',
};

const json = { 'content-type': 'application/json' };

describe('the fake API', () => {
  it('answers a contract by its route and records the parsed request', async () => {
    const api = new FakeApi().on(staffContracts.list, () => page([member]));
    const res = await api.fetch('/api/v1/admin/staff?page=2&pageSize=20&status=invited');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(page([member]));
    expect(api.last(staffContracts.list)?.query).toMatchObject({ page: 2, pageSize: 20, status: 'invited' });
    expect(api.problems).toEqual([]);
  });

  it('answers with the contract’s success status, or the status of an error the test gives', async () => {
    const api = new FakeApi().on(staffContracts.invite, () => member);
    const body = JSON.stringify({
      email: 'ida@betreiber.example',
      firstName: 'Ida',
      lastName: 'Neu',
      language: 'en',
      roleIds: ['2d3e4f50-6172-4c83-8d94-b5c6d7e8f9a0'],
    });
    expect((await api.fetch('/api/v1/admin/staff', { method: 'POST', headers: json, body })).status).toBe(
      201,
    );
    api.on(staffContracts.invite, () => apiError(409, 'EMAIL_TAKEN'));
    const refused = await api.fetch('/api/v1/admin/staff', { method: 'POST', headers: json, body });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('EMAIL_TAKEN');
    expect(api.calls(staffContracts.invite)).toHaveLength(2);
    expect(api.problems).toEqual([]);
  });

  it('picks a literal path over a parameter (`/admin/roles/...`)', async () => {
    const api = new FakeApi().on(roleContracts.list, () => page([]));
    await api.fetch('/api/v1/admin/roles?pageSize=100');
    expect(api.calls(roleContracts.list)).toHaveLength(1);
    expect(api.problems).toEqual([]);
  });

  it('fails on an answer the contract does not allow', async () => {
    const api = new FakeApi().on(staffContracts.list, () =>
      page([{ ...member, status: 'sleeping' as 'active' }]),
    );
    await api.fetch('/api/v1/admin/staff');
    expect(api.problems).toHaveLength(1);
    expect(api.problems[0]).toContain('an answer listStaff does not allow');
  });

  it('checks a JSON answer the handler writes itself, and passes a stream as it is', async () => {
    const api = new FakeApi().on(staffContracts.list, () => Response.json({ items: 'none' }));
    expect((await api.fetch('/api/v1/admin/staff')).status).toBe(500);
    expect(api.problems[0]).toContain('an answer listStaff does not allow');
    api.problems.length = 0;
    api.on(staffContracts.list, () => new Response('event: done\ndata: {}\n\n'));
    expect(await (await api.fetch('/api/v1/admin/staff')).text()).toBe('event: done\ndata: {}\n\n');
    api.on(staffContracts.list, () => Response.json(page([member]), { headers: { 'x-csrf-token': 'c' } }));
    const sent = await api.fetch('/api/v1/admin/staff', {
      headers: { 'X-CSRF-Token': 'c' },
      credentials: 'same-origin',
    });
    expect(sent.status).toBe(200);
    expect(api.last(staffContracts.list)).toMatchObject({
      headers: { 'x-csrf-token': 'c' },
      credentials: 'same-origin',
    });
    expect(api.problems).toEqual([]);
  });

  it('fails on a path no contract has, and on one no handler answers', async () => {
    const api = new FakeApi();
    expect((await api.fetch('/api/v1/admin/stafff')).status).toBe(500);
    expect((await api.fetch('/api/v1/admin/staff')).status).toBe(500);
    expect(api.problems).toEqual([
      'GET /api/v1/admin/stafff: no contract has this method and path',
      'GET /api/v1/admin/staff: no handler for listStaff: answer it with api.on(…)',
    ]);
  });

  it('fails on a request the contract refuses: a bad query or body', async () => {
    const api = new FakeApi().on(staffContracts.list, () => page([])).on(staffContracts.invite, () => member);
    await api.fetch('/api/v1/admin/staff?pageSize=7');
    await api.fetch('/api/v1/admin/staff', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'x' }),
    });
    expect(api.problems).toHaveLength(2);
    expect(api.problems[0]).toContain('a query the contract refuses (pageSize');
    expect(api.problems[1]).toContain('a body the contract refuses');
  });

  it('leaves the app’s own session check pending unless the test answers it', async () => {
    const api = new FakeApi();
    const pending = api.fetch('/api/v1/auth/me');
    const settled = await Promise.race([pending.then(() => 'answered'), Promise.resolve('pending')]);
    expect(settled).toBe('pending');
    expect(api.calls(authContracts.me)).toHaveLength(1);
    expect(api.problems).toEqual([]);
  });
});
