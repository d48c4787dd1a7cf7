import { fireEvent, screen, waitFor } from '@testing-library/react';
import { DEFAULT_ROLES, type Role, RULE_PLACEHOLDERS, roleContracts } from '@werkwissen/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../../test/fake-api.ts';
import { signedInAs } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import RolePage from './role-page.tsx';

const ROLE_ID = '3c2b1a09-8f7e-4d6c-9b5a-4a3b2c1d0e9f';

const employeeRole = (overrides: Partial<Role> = {}): Role => ({
  id: ROLE_ID,
  name: 'Employee',
  kind: 'Employee',
  description: DEFAULT_ROLES.Employee.description,
  rules: DEFAULT_ROLES.Employee.rules,
  isSystem: true,
  holderCount: 2,
  heldByCaller: false,
  updatedAt: '2025-05-01T10:00:00.000Z',
  ...overrides,
});

function stubServer(role: Role) {
  return fakeApi()
    .on(roleContracts.get, ({ params }) => {
      expect(params.roleId).toBe(ROLE_ID);
      return role;
    })
    .on(roleContracts.update, ({ data }) => ({ ...role, ...data }))
    .on(roleContracts.holders, () => page([]));
}

beforeEach(() => signedInAs('Administrator'));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

// The role matrix is one of the largest screens: 3.4 s for the first test on a quiet machine, 10 to 29 s beside CI's
// other passes.
describe('the role page', () => {
  it("saves a right added in the matrix within the company role's own conditions", async () => {
    const api = stubServer(employeeRole());
    renderWithApp(<RolePage />, `/admin/roles/${ROLE_ID}`);
    const cell = await screen.findByRole('button', { name: 'Read · Feedback and reports: Not granted' });
    fireEvent.click(cell);
    expect(cell.getAttribute('data-state')).toBe('can');
    fireEvent.click(screen.getByRole('button', { name: 'Save permissions' }));
    await waitFor(() => expect(api.calls(roleContracts.update)).toHaveLength(1));
    expect(api.last(roleContracts.update)?.params.roleId).toBe(ROLE_ID);
    const { rules } = api.last(roleContracts.update)!.body;
    expect(rules).toContainEqual({
      action: ['create', 'read'],
      subject: 'Feedback',
      conditions: { companyId: RULE_PLACEHOLDERS.companyId },
    });
  });

  it('offers only to deny a right the editor does not hold (the administrator: a company’s divisions)', async () => {
    stubServer(employeeRole());
    renderWithApp(<RolePage />, `/admin/roles/${ROLE_ID}`);
    const cell = await screen.findByRole('button', { name: 'Update · Divisions: Not granted' });
    fireEvent.click(cell);
    expect(cell.getAttribute('data-state')).toBe('cannot');
  });

  it('shows the role read-only to one who holds it', async () => {
    stubServer(employeeRole({ heldByCaller: true }));
    renderWithApp(<RolePage />, `/admin/roles/${ROLE_ID}`);
    await screen.findByText(/You hold this role yourself/);
    expect(
      (
        screen.getByRole('button', {
          name: 'Read · Divisions: Allowed with conditions (for example only in the holder’s own company)',
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save permissions' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reset to defaults' })).toBeNull();
  });
});
