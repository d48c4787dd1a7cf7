import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_ROLES, type Role, type StaffMember } from '@werkwissen/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedInAs } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import StaffPage from './staff-page.tsx';

const role = (id: string, name: string, kind: Role['kind']): Role => ({
  id,
  name,
  kind,
  description: '',
  rules: kind ? DEFAULT_ROLES[kind].rules : [],
  isSystem: Boolean(kind),
  holderCount: 0,
  heldByCaller: false,
  updatedAt: '2025-05-01T10:00:00.000Z',
});
const ROLES = [
  role('0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8', 'Administrator', 'Administrator'),
  role('1c2d3e4f-5061-4b72-9c83-a4b5c6d7e8f9', 'DataManager', 'DataManager'),
  role('2d3e4f50-6172-4c83-8d94-b5c6d7e8f9a0', 'Auswertung', null),
];
const member: StaffMember = {
  id: '3e4f5061-7283-4d94-9ea5-c6d7e8f9a0b1',
  email: 'lea@betreiber.example',
  firstName: 'Lea',
  lastName: 'Brandt',
  kind: 'Staff',
  language: 'en',
  status: 'invited',
  roles: [{ id: ROLES[2]!.id, name: 'Auswertung', kind: null }],
  lastSignInAt: null,
  createdAt: '2025-05-01T10:00:00.000Z',
};

function stubServer() {
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    if (url === '/api/v1/admin/staff' && init.method === 'POST')
      return Response.json(member, { status: 201 });
    if (url.startsWith('/api/v1/admin/staff?'))
      return Response.json({ items: [member], total: 1, page: 1, pageSize: 10 });
    if (url.startsWith('/api/v1/admin/roles?'))
      return Response.json({ items: ROLES, total: 3, page: 1, pageSize: 100 });
    return Response.json({ error: { code: 'NOT_FOUND', message: 'Not found.' } }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

beforeEach(() => signedInAs('Administrator'));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the staff page', { timeout: 30_000 }, () => {
  it('lists staff with their roles and status, and invites with the operator’s roles only', async () => {
    const fetch = stubServer();
    renderWithApp(<StaffPage />, '/admin/staff');
    const row = (await screen.findByText('lea@betreiber.example')).closest('tr')!;
    expect(within(row).getByText('Auswertung')).toBeTruthy();
    expect(within(row).getByText('Invited')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Invite staff member' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'ida@betreiber.example' } });
    fireEvent.change(within(dialog).getByLabelText('First name'), { target: { value: 'Ida' } });
    fireEvent.change(within(dialog).getByLabelText('Last name'), { target: { value: 'Neu' } });
    fireEvent.mouseDown(within(dialog).getByLabelText('Roles'));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    // Company roles are not given to staff members.
    expect(options).toEqual(['Administrator', 'Auswertung']);
    fireEvent.click(screen.getByRole('option', { name: 'Auswertung' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true));
    const [, init] = fetch.mock.calls.find(([, i]) => i?.method === 'POST')!;
    expect(JSON.parse(String(init!.body))).toMatchObject({
      email: 'ida@betreiber.example',
      firstName: 'Ida',
      lastName: 'Neu',
      roleIds: [ROLES[2]!.id],
    });
    await screen.findByText('Invitation sent.');
  });
});
