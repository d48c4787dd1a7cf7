import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  DEFAULT_ROLES,
  type Role,
  roleContracts,
  type StaffMember,
  staffContracts,
} from '@werkwissen/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../../test/fake-api.ts';
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
  return fakeApi()
    .on(staffContracts.invite, () => member)
    .on(staffContracts.list, () => page([member]))
    .on(roleContracts.list, () => page(ROLES, 100));
}

beforeEach(() => signedInAs('Administrator'));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the staff page', () => {
  it('lists staff with their roles and status, and invites with the operator’s roles only', async () => {
    const api = stubServer();
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
    await waitFor(() => expect(api.calls(staffContracts.invite)).toHaveLength(1));
    expect(api.last(staffContracts.invite)?.body).toMatchObject({
      email: 'ida@betreiber.example',
      firstName: 'Ida',
      lastName: 'Neu',
      roleIds: [ROLES[2]!.id],
    });
    await screen.findByText('Invitation sent.');
  });
});
