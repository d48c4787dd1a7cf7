import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type MeResponse, adminPeopleContracts as people } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { DM_ID, dataManager, dataManagerDetail } from './admin-people-test-data.ts';
import DataManagerDetailPage from './data-manager-detail-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const DETAIL = `/api/v1/admin/users/data-managers/${DM_ID}`;
const PATH = `/admin/users/data-manager/${DM_ID}`;

describe('the data manager detail page', () => {
  it('shows company, plan, storage, divisions, recent sign-ins and activity', async () => {
    signedInAs('Administrator');
    fakeApi().on(people.getDataManager, () => dataManagerDetail);
    renderWithApp(<DataManagerDetailPage />, PATH);
    expect(await screen.findByRole('heading', { name: 'Dana Berg' })).toBeTruthy();
    expect(screen.getByText('3 MB of 5 GB')).toBeTruthy();
    const divisions = screen.getByRole('table', { name: 'Divisions' });
    expect(within(divisions).getByText('Kundendienst')).toBeTruthy();
    expect(within(divisions).getByText('12')).toBeTruthy();
    expect(
      within(screen.getByRole('table', { name: 'Recent sign-ins' })).getByText('203.0.113.7'),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('table', { name: 'Recent activity' })).getByText('createDivision'),
    ).toBeTruthy();
    expect(screen.getByText(/^Trial \(active, ends/)).toBeTruthy();
  });

  it('deletes only after the company name or e-mail is typed', async () => {
    signedInAs('Administrator');
    const api = fakeApi()
      .on(people.getDataManager, () => dataManagerDetail)
      .on(people.deleteDataManager, () => null)
      .on(people.listDataManagers, () => page([]));
    renderWithApp(<DataManagerDetailPage />, PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = within(await screen.findByRole('dialog'));
    const confirm = dialog.getByRole('button', { name: 'Delete permanently' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    const typed = dialog.getByLabelText('Type the company name or the e-mail address to confirm');
    fireEvent.change(typed, { target: { value: 'Berg' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(typed, { target: { value: 'berg sanitär gmbh' } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    await screen.findByText('The data manager and their company have been deleted.');
    const call = api.last(people.deleteDataManager);
    expect(`${call?.url.pathname}${call?.url.search}`).toBe(`${DETAIL}?confirmation=berg+sanit%C3%A4r+gmbh`);
  });

  it('deactivates after a confirmation', async () => {
    signedInAs('Administrator');
    let status: typeof dataManager.status = 'active';
    fakeApi()
      .on(people.getDataManager, () => ({ ...dataManagerDetail, status }))
      .on(people.deactivateDataManager, ({ params }) => {
        expect(params.dataManagerId).toBe(DM_ID);
        status = 'deactivated';
        return { ...dataManager, status };
      });
    renderWithApp(<DataManagerDetailPage />, PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Deactivate' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('button', { name: 'Deactivate' }));
    await screen.findByText('The data manager has been deactivated.');
    expect(await screen.findByRole('button', { name: 'Reactivate' })).toBeTruthy();
    // A deactivated user cannot be viewed as.
    expect(screen.queryByRole('button', { name: 'View as this user' })).toBeNull();
  });

  it('lists the company’s employees, each of whom can be viewed as', async () => {
    signedInAs('Administrator');
    const api = fakeApi()
      .on(people.getDataManager, () => dataManagerDetail)
      .on(people.startImpersonation, () => new Promise<never>(() => {}));
    renderWithApp(<DataManagerDetailPage />, PATH);
    const team = within(await screen.findByRole('table', { name: 'Employees' }));
    fireEvent.click(team.getByRole('button', { name: 'View as this user: mia.koch@berg-sanitaer.example' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('View the product as Mia Koch?')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'View as this user' }));
    await waitFor(() =>
      expect(api.last(people.startImpersonation)?.body).toEqual({
        userId: 'e1e2e3e4-0000-4000-8000-000000000001',
      }),
    );
  });

  it('offers viewing as the user to the administrator only', async () => {
    signedInAs('Staff');
    fakeApi().on(people.getDataManager, () => dataManagerDetail);
    renderWithApp(<DataManagerDetailPage />, PATH);
    await screen.findByRole('heading', { name: 'Dana Berg' });
    expect(screen.queryByRole('button', { name: /View as this user/ })).toBeNull();
  });

  it('starts viewing as the user and opens their home', async () => {
    signedInAs('Administrator');
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const me: MeResponse = {
      userData: { ...JSON.parse(localStorage.getItem('userData')!), id: DM_ID, kind: 'DataManager' },
      userRole: 'DataManager',
      userAbilityRules: [],
      csrfToken: 'x',
      impersonation: { by: 'admin@werkwissen.example', expiresAt: '2026-11-24T10:30:00.000Z' },
    };
    const api = fakeApi()
      .on(people.getDataManager, () => dataManagerDetail)
      .on(people.startImpersonation, () => me);
    renderWithApp(<DataManagerDetailPage />, PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'View as this user' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/at most 30 minutes/)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'View as this user' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/dashboard'));
    expect(api.last(people.startImpersonation)?.body).toEqual({ userId: DM_ID });
    expect(JSON.parse(localStorage.getItem('impersonation')!)).toEqual(me.impersonation);
  });

  it('offers staff, who only read data managers, no edit, deactivate or delete (they would end in 403)', async () => {
    signedInAs('Staff');
    fakeApi().on(people.getDataManager, () => dataManagerDetail);
    renderWithApp(<DataManagerDetailPage />, PATH);
    expect(await screen.findByRole('heading', { name: 'Dana Berg' })).toBeTruthy();
    for (const name of ['Edit', 'Deactivate', 'Delete'])
      expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByText('Access and deletion')).toBeNull();
  });
});
