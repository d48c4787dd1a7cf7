import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { adminPeopleContracts as people } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadCsv } from '../../components/csv.ts';
import { type FakeApi, fakeApi, page } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp, useLanguage } from '../../test/render.tsx';
import { dataManager } from './admin-people-test-data.ts';
import DataManagersPage from './data-managers-page.tsx';

vi.mock('../../components/csv.ts', () => ({ downloadCsv: vi.fn() }));
afterEach(() => vi.unstubAllGlobals());

/** The address of the last list request: the app also asks for the session (`/auth/me`) whenever it likes. */
const lastListUrl = (api: FakeApi) => api.last(people.listDataManagers)?.url.href;

describe('the data managers page', () => {
  it('lists data managers with company, plan and status, and exports the filtered list', async () => {
    signedInAs('Administrator');
    const server = fakeApi().on(people.listDataManagers, () => page([dataManager]));
    renderWithApp(<DataManagersPage />, '/admin/users/data-manager');

    const email = await screen.findByText(dataManager.email);
    const row = within(email.closest('tr')!);
    expect(row.getByText('Berg Sanitär GmbH')).toBeTruthy();
    expect(row.getByText('Trial')).toBeTruthy();
    expect(row.getByText('Active')).toBeTruthy();
    expect(row.getByRole('link', { name: `Open: ${dataManager.email}` }).getAttribute('href')).toBe(
      `/admin/users/data-manager/${dataManager.id}`,
    );

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'deactivated' } });
    await waitFor(() => expect(lastListUrl(server)).toContain('status=deactivated'));
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalled());
    const [name, header, rows] = vi.mocked(downloadCsv).mock.calls[0]!;
    expect(name).toBe('data-managers.csv');
    // The import's columns under the import's headers first (an exported file imports again), then the rest.
    expect(header).toEqual([
      'First name',
      'Last name',
      'Email',
      'WhatsApp phone number',
      'Language',
      'Company',
      'Plan',
      'Status',
      'Storage',
      'Last sign-in',
      'Added',
    ]);
    expect(rows[0]!.slice(0, 9)).toEqual([
      'Dana',
      'Berg',
      dataManager.email,
      dataManager.phone,
      dataManager.language,
      'Berg Sanitär GmbH',
      'Trial',
      'Active',
      '3 MB',
    ]);
    expect(lastListUrl(server)).toContain('status=deactivated');
  });

  it('says "No users found with this email" when a searched address finds nobody', async () => {
    signedInAs('Administrator');
    const server = fakeApi().on(people.listDataManagers, () => page([]));
    renderWithApp(<DataManagersPage />, '/admin/users/data-manager');
    await screen.findByText('No data managers yet.');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'niemand@nirgends.example' } });
    await screen.findByText('No users found with this email');
    expect(lastListUrl(server)).toContain('q=niemand%40nirgends.example');
  });

  it('adds a data manager with the shared schema: a missing company name is said on its field', async () => {
    signedInAs('Administrator');
    const server = fakeApi()
      .on(people.listDataManagers, () => page([]))
      .on(people.createDataManager, ({ data }) => ({ ...dataManager, ...data }));
    renderWithApp(<DataManagersPage />, '/admin/users/data-manager');
    fireEvent.click(await screen.findByRole('button', { name: 'Add data manager' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.change(dialog.getByLabelText(/Email/), { target: { value: 'neu@firma.example' } });
    fireEvent.change(dialog.getByLabelText(/First name/), { target: { value: 'Nora' } });
    fireEvent.change(dialog.getByLabelText(/Last name/), { target: { value: 'Neu' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Send invitation' }));
    await dialog.findByText('This field is required');
    expect(server.calls(people.createDataManager)).toHaveLength(0);

    fireEvent.change(dialog.getByLabelText(/Company name/), { target: { value: 'Neu GmbH' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Send invitation' }));
    await screen.findByText('Invitation sent to neu@firma.example.');
    expect(server.last(people.createDataManager)?.body).toMatchObject({
      email: 'neu@firma.example',
      firstName: 'Nora',
      lastName: 'Neu',
      companyName: 'Neu GmbH',
    });
  });

  it('reads right to left in Arabic: the way to the detail page points left', async () => {
    await useLanguage('ar');
    signedInAs('Administrator');
    fakeApi().on(people.listDataManagers, () => page([dataManager]));
    const { container } = renderWithApp(<DataManagersPage />, '/admin/users/data-manager');
    expect(await screen.findByRole('heading', { name: 'مديرو البيانات' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'إضافة مدير بيانات' })).toBeTruthy();
    await screen.findByText(dataManager.email);
    const open = container.querySelector(`a[href="/admin/users/data-manager/${dataManager.id}"] svg`);
    expect(open?.getAttribute('style')).toContain('scaleX(-1)');
  });

  it('offers staff, who only read data managers, no add and no import (they would end in 403)', async () => {
    signedInAs('Staff');
    fakeApi().on(people.listDataManagers, () => page([dataManager]));
    renderWithApp(<DataManagersPage />, '/admin/users/data-manager');
    await screen.findByText(dataManager.email);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add data manager' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Import users' })).toBeNull();
  });
});
