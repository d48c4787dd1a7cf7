import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { DM_ID, dataManager, dataManagerDetail, fakeServer } from './admin-people-test-data.ts';
import DataManagerDetailPage from './data-manager-detail-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const DETAIL = `/api/v1/admin/users/data-managers/${DM_ID}`;
const PATH = `/admin/users/data-manager/${DM_ID}`;

describe('the data manager detail page', { timeout: 20_000 }, () => {
  it('shows company, plan, storage, divisions, recent sign-ins and activity', async () => {
    signedInAs('Administrator');
    vi.stubGlobal('fetch', vi.fn(fakeServer({ [`GET ${DETAIL}`]: () => dataManagerDetail }).fetch));
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
    const server = fakeServer({
      [`GET ${DETAIL}`]: () => dataManagerDetail,
      [`DELETE ${DETAIL}`]: () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/users/data-managers': () => ({ items: [], total: 0, page: 1, pageSize: 10 }),
    });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
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
    const call = server.calls.find((c) => c.method === 'DELETE');
    expect(call?.url).toBe(`${DETAIL}?confirmation=berg+sanit%C3%A4r+gmbh`);
  });

  it('deactivates after a confirmation', async () => {
    signedInAs('Administrator');
    let status = 'active';
    const server = fakeServer({
      [`GET ${DETAIL}`]: () => ({ ...dataManagerDetail, status }),
      [`POST ${DETAIL}/deactivate`]: () => {
        status = 'deactivated';
        return { ...dataManager, status };
      },
    });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
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
    const server = fakeServer({
      [`GET ${DETAIL}`]: () => dataManagerDetail,
      'POST /api/v1/admin/impersonation': () => new Promise<Response>(() => {}),
    });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    renderWithApp(<DataManagerDetailPage />, PATH);
    const team = within(await screen.findByRole('table', { name: 'Employees' }));
    fireEvent.click(team.getByRole('button', { name: 'View as this user: mia.koch@berg-sanitaer.example' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('View the product as Mia Koch?')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'View as this user' }));
    await waitFor(() =>
      expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({
        userId: 'e1e2e3e4-0000-4000-8000-000000000001',
      }),
    );
  });

  it('offers viewing as the user to the administrator only', async () => {
    signedInAs('Staff');
    vi.stubGlobal('fetch', vi.fn(fakeServer({ [`GET ${DETAIL}`]: () => dataManagerDetail }).fetch));
    renderWithApp(<DataManagerDetailPage />, PATH);
    await screen.findByRole('heading', { name: 'Dana Berg' });
    expect(screen.queryByRole('button', { name: /View as this user/ })).toBeNull();
  });

  it('starts viewing as the user and opens their home', async () => {
    signedInAs('Administrator');
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const me = {
      userData: { ...JSON.parse(localStorage.getItem('userData')!), id: DM_ID, kind: 'DataManager' },
      userRole: 'DataManager',
      userAbilityRules: [],
      csrfToken: 'x',
      impersonation: { by: 'admin@werkwissen.example', expiresAt: '2026-11-24T10:30:00.000Z' },
    };
    const server = fakeServer({
      [`GET ${DETAIL}`]: () => dataManagerDetail,
      'POST /api/v1/admin/impersonation': () => me,
    });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    renderWithApp(<DataManagerDetailPage />, PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'View as this user' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/at most 30 minutes/)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'View as this user' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/dashboard'));
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ userId: DM_ID });
    expect(JSON.parse(localStorage.getItem('impersonation')!)).toEqual(me.impersonation);
  });

  it('offers staff, who only read data managers, no edit, deactivate or delete (they would end in 403)', async () => {
    signedInAs('Staff');
    vi.stubGlobal('fetch', vi.fn(fakeServer({ [`GET ${DETAIL}`]: () => dataManagerDetail }).fetch));
    renderWithApp(<DataManagerDetailPage />, PATH);
    expect(await screen.findByRole('heading', { name: 'Dana Berg' })).toBeTruthy();
    for (const name of ['Edit', 'Deactivate', 'Delete'])
      expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByText('Access and deletion')).toBeNull();
  });
});
