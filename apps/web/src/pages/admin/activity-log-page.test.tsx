import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { adminContracts, type SystemSettings, systemSettingsContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import type { ActivityEntry } from './activity-detail-dialog.tsx';
import ActivityLogPage from './activity-log-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const settingsChange: ActivityEntry = {
  id: '5b0e8f5e-0000-4000-8000-000000000001',
  action: 'updateGeneralSettings',
  method: 'PUT',
  endpoint: '/api/v1/admin/system-settings/general',
  statusCode: 200,
  actorUserId: null,
  actorEmail: 'admin@werkwissen.example',
  impersonatorEmail: null,
  companyId: null,
  companyName: null,
  ip: '203.0.113.7',
  requestId: 'req-42',
  changes: {
    before: { appTitle: 'Werkwissen', publicUrl: 'https://a.example' },
    after: { appTitle: 'Handwerk Wissen', publicUrl: 'https://a.example' },
  },
  createdAt: '2026-03-04T08:00:00.000Z',
};
const refused: ActivityEntry = {
  ...settingsChange,
  id: '5b0e8f5e-0000-4000-8000-000000000002',
  action: 'createDivision',
  method: 'POST',
  endpoint: '/api/v1/divisions',
  statusCode: 422,
  actorEmail: 'dm@firma.example',
  // The operator tried this while viewing the product as the data manager.
  impersonatorEmail: 'admin@werkwissen.example',
  companyId: 'c0ffee00-0000-4000-8000-000000000001',
  companyName: 'Heiztechnik Müller GmbH',
  changes: null,
};

const settingsValues: SystemSettings['values'] = {
  general: { appTitle: 'Werkwissen', publicUrl: 'https://wissen.example', defaultLanguage: 'de' },
  signUp: { signupEnabled: true, botProtection: false },
  plans: { divisionsLimit: 10, employeesLimit: 25, storageLimitMb: 5120, trialDays: 14 },
  branding: {
    primaryColor: '#ff7526',
    primaryColorDark: '#b34700',
    surfaceLight: '#f8f7fa',
    surfaceDark: '#2f3349',
  },
  activityLog: { retentionDays: 90 },
  mailBudget: { perHour: 200, perDay: 1000, trialPerHour: 20, trialPerDay: 50 },
};

function stubServer() {
  const api = fakeApi()
    .on(adminContracts.listActivity, () => ({
      items: [settingsChange, refused],
      total: 12,
      page: 1,
      pageSize: 10,
    }))
    .on(systemSettingsContracts.get, () => ({
      values: settingsValues,
      defaults: { ...settingsValues, activityLog: { retentionDays: 180 } },
      logo: null,
      updatedAt: null,
    }));
  return { lastList: () => api.last(adminContracts.listActivity)!.url.searchParams };
}

describe('the activity log', () => {
  it('shows the spec’s columns with actor, company and address, and the retention with a link to change it', async () => {
    signedInAs('Administrator');
    stubServer();
    renderWithApp(<ActivityLogPage />, '/admin/activity-log');

    const action = await screen.findByText('createDivision');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '#',
      'Time',
      'Action',
      'Endpoint',
      'Code',
      'Actor',
      'Company',
      'Address',
      'Actions',
    ]);
    const row = within(action.closest('tr')!);
    expect(row.getByText('2')).toBeTruthy();
    expect(row.getByText('POST /api/v1/divisions')).toBeTruthy();
    expect(row.getByText('422')).toBeTruthy();
    expect(row.getByText('Heiztechnik Müller GmbH')).toBeTruthy();
    expect(row.getByText('dm@firma.example')).toBeTruthy();
    expect(row.getByText('by admin@werkwissen.example, viewing as this user')).toBeTruthy();
    const own = within(screen.getByText('updateGeneralSettings').closest('tr')!);
    expect(own.queryByText(/viewing as this user/)).toBeNull();
    const retention = await screen.findByText(/kept for 90 days/);
    expect(within(retention).getByRole('link', { name: 'Change the retention' }).getAttribute('href')).toBe(
      '/admin/system-settings/activity-log',
    );
  });

  it('sends the filters to the server and exports exactly the filtered log', async () => {
    signedInAs('Administrator');
    const server = stubServer();
    renderWithApp(<ActivityLogPage />, '/admin/activity-log');
    await screen.findByText('createDivision');

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-31' } });
    fireEvent.change(screen.getByLabelText('Actor (email)'), { target: { value: 'dm@' } });
    fireEvent.change(screen.getByLabelText('Company'), { target: { value: 'Müller' } });
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'division' } });
    fireEvent.change(screen.getByLabelText('Result'), { target: { value: '4xx' } });

    const expected = {
      from: '2026-03-01',
      to: '2026-03-31',
      actor: 'dm@',
      company: 'Müller',
      action: 'division',
      status: '4xx',
    };
    await waitFor(() => expect(server.lastList().get('status')).toBe('4xx'));
    const sent = server.lastList();
    for (const [k, v] of Object.entries(expected)) expect(sent.get(k)).toBe(v);
    expect(sent.get('page')).toBe('1');

    const href = screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')!;
    const exported = new URL(href, 'http://x');
    expect(exported.pathname).toBe('/api/v1/admin/activity-log/export');
    expect(Object.fromEntries(exported.searchParams)).toEqual(expected);

    fireEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(server.lastList().get('status')).toBeNull());
  });

  it('shows an entry’s details with each changed value before and after', async () => {
    signedInAs('Administrator');
    stubServer();
    renderWithApp(<ActivityLogPage />, '/admin/activity-log');
    const action = await screen.findByText('updateGeneralSettings');
    fireEvent.click(within(action.closest('tr')!).getByRole('button', { name: 'Show details' }));

    const dialog = await screen.findByRole('dialog', { name: 'Activity entry' });
    expect(within(dialog).getByText('req-42')).toBeTruthy();
    const changes = within(dialog).getByRole('table', { name: 'Changes' });
    const rows = within(changes)
      .getAllByRole('row')
      .map((r) =>
        within(r)
          .getAllByRole(r.querySelector('th') ? 'columnheader' : 'cell')
          .map((c) => c.textContent),
      );
    // Only what changed: the unchanged address is left out.
    expect(rows).toEqual([
      ['Setting', 'Before', 'After'],
      ['appTitle', 'Werkwissen', 'Handwerk Wissen'],
    ]);
  });
});
