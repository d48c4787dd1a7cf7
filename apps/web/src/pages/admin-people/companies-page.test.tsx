import { fireEvent, screen, within } from '@testing-library/react';
import { adminPeopleContracts as people } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { COMPANY_ID, company } from './admin-people-test-data.ts';
import CompaniesPage from './companies-page.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('the companies page', () => {
  it('lists companies and suspends one with a reason, which it asks for first', async () => {
    signedInAs('Administrator');
    let current = company;
    const api = fakeApi()
      .on(people.listCompanies, () => page([current]))
      .on(people.suspendCompany, ({ params, data }) => {
        expect(params.companyId).toBe(COMPANY_ID);
        current = { ...company, suspendedAt: '2026-11-24T10:00:00.000Z', suspendedReason: data.reason };
        return current;
      });
    renderWithApp(<CompaniesPage />, '/admin/companies');
    const row = within((await screen.findByText('Berg Sanitär GmbH')).closest('tr')!);
    expect(row.getByText('Monthly plan')).toBeTruthy();
    expect(row.getByText('5')).toBeTruthy();
    expect(row.getByText('Active')).toBeTruthy();

    fireEvent.click(row.getByRole('button', { name: 'Suspend: Berg Sanitär GmbH' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('button', { name: 'Suspend' }));
    await dialog.findByText('This field is required');
    expect(api.calls(people.suspendCompany)).toHaveLength(0);
    fireEvent.change(dialog.getByLabelText('Reason'), { target: { value: 'Rechnung offen' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Suspend' }));
    await screen.findByText('The company has been suspended.');
    expect(api.last(people.suspendCompany)?.body).toEqual({ reason: 'Rechnung offen' });
    expect(await screen.findByRole('button', { name: 'Resume: Berg Sanitär GmbH' })).toBeTruthy();
  });

  it('resumes a suspended company after a confirmation', async () => {
    signedInAs('Administrator');
    const suspended = {
      ...company,
      suspendedAt: '2026-11-24T10:00:00.000Z',
      suspendedReason: 'Rechnung offen',
    };
    const api = fakeApi()
      .on(people.listCompanies, () => page([suspended]))
      .on(people.resumeCompany, () => company);
    renderWithApp(<CompaniesPage />, '/admin/companies');
    fireEvent.click(await screen.findByRole('button', { name: 'Resume: Berg Sanitär GmbH' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Resume' }));
    await screen.findByText('The company has been resumed.');
    expect(api.last(people.resumeCompany)?.params.companyId).toBe(COMPANY_ID);
  });

  it('offers staff, who only read companies, no suspend (it would end in 403)', async () => {
    signedInAs('Staff');
    fakeApi().on(people.listCompanies, () => page([company]));
    renderWithApp(<CompaniesPage />, '/admin/companies');
    const row = within((await screen.findByText('Berg Sanitär GmbH')).closest('tr')!);
    expect(row.getByText('Active')).toBeTruthy();
    expect(row.queryByRole('button', { name: 'Suspend: Berg Sanitär GmbH' })).toBeNull();
  });
});
