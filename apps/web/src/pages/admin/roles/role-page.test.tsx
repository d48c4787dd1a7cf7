import { fireEvent, screen, waitFor } from '@testing-library/react';
import { DEFAULT_ROLES, type Role, RULE_PLACEHOLDERS } from '@werkwissen/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    if (url === `/api/v1/admin/roles/${ROLE_ID}` && init.method === 'PATCH') {
      return Response.json({ ...role, ...JSON.parse(String(init.body)) });
    }
    if (url === `/api/v1/admin/roles/${ROLE_ID}`) return Response.json(role);
    if (url.startsWith(`/api/v1/admin/roles/${ROLE_ID}/holders`)) {
      return Response.json({ items: [], total: 0, page: 1, pageSize: 10 });
    }
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

describe('the role page', { timeout: 20_000 }, () => {
  it("saves a right added in the matrix within the company role's own conditions", async () => {
    const fetch = stubServer(employeeRole());
    renderWithApp(<RolePage />, `/admin/roles/${ROLE_ID}`);
    const cell = await screen.findByRole('button', { name: 'Read · Feedback and reports: Not granted' });
    fireEvent.click(cell);
    expect(cell.getAttribute('data-state')).toBe('can');
    fireEvent.click(screen.getByRole('button', { name: 'Save permissions' }));
    await waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(true));
    const [, init] = fetch.mock.calls.find(([, i]) => i?.method === 'PATCH')!;
    const { rules } = JSON.parse(String(init!.body));
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
