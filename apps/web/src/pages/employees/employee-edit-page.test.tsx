import { screen } from '@testing-library/react';
import { divisionContracts, type Employee, employeeContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { division, storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import EmployeeEditPage from './employee-edit-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const EMPLOYEE_ID = '5d0f3a1e-7b2c-4c8d-9e6f-0a1b2c3d4e5f';
const UNKNOWN_ID = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';

const employee: Employee = {
  id: EMPLOYEE_ID,
  email: 'mia.koch@firma.example',
  firstName: 'Mia',
  lastName: 'Koch',
  phone: null,
  language: 'de',
  status: 'active',
  divisions: [],
  createdAt: '2025-01-10T08:00:00.000Z',
};

function stubServer() {
  return fakeApi()
    .on(employeeContracts.get, ({ params }) =>
      params.employeeId === EMPLOYEE_ID ? employee : apiError(404, 'NOT_FOUND', 'Not found.'),
    )
    .on(divisionContracts.list, () => ({ items: [division()], limit: 3, storage }));
}

describe('the employee edit page', () => {
  it('loads the employee of the address', async () => {
    stubServer();
    renderWithApp(<EmployeeEditPage />, `/employee-add/${EMPLOYEE_ID}`);
    expect(((await screen.findByLabelText(/First name/)) as HTMLInputElement).value).toBe('Mia');
  });

  it('says an unknown employee was not found, with the way back to the list', async () => {
    stubServer();
    renderWithApp(<EmployeeEditPage />, `/employee-add/${UNKNOWN_ID}`);
    await screen.findByText('This employee does not exist or has been deleted.');
    expect(screen.queryByText('Please fill out the form correctly.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to employees' }).getAttribute('href')).toBe(
      '/employee-add',
    );
  });

  it('says an address that is no employee id at all was not found, without asking the server', async () => {
    const api = stubServer();
    renderWithApp(<EmployeeEditPage />, '/employee-add/not-an-id');
    await screen.findByText('This employee does not exist or has been deleted.');
    expect(api.requests.some(({ url }) => url.startsWith('/api/v1/employees'))).toBe(false);
  });
});
