import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { COMPANY_ID, company, fakeServer, page } from './admin-people-test-data.ts';
import CompaniesPage from './companies-page.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('the companies page', { timeout: 20_000 }, () => {
  it('lists companies and suspends one with a reason, which it asks for first', async () => {
    signedInAs('Administrator');
    let current = company;
    const server = fakeServer({
      'GET /api/v1/admin/companies': () => page([current]),
      [`POST /api/v1/admin/companies/${COMPANY_ID}/suspend`]: (_url, body) => {
        current = {
          ...company,
          suspendedAt: '2026-11-24T10:00:00.000Z',
          suspendedReason: (body as { reason: string }).reason,
        };
        return current;
      },
    });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    renderWithApp(<CompaniesPage />, '/admin/companies');
    const row = within((await screen.findByText('Berg Sanitär GmbH')).closest('tr')!);
    expect(row.getByText('Monthly plan')).toBeTruthy();
    expect(row.getByText('5')).toBeTruthy();
    expect(row.getByText('Active')).toBeTruthy();

    fireEvent.click(row.getByRole('button', { name: 'Suspend: Berg Sanitär GmbH' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('button', { name: 'Suspend' }));
    await dialog.findByText('This field is required');
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(dialog.getByLabelText('Reason'), { target: { value: 'Rechnung offen' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Suspend' }));
    await screen.findByText('The company has been suspended.');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ reason: 'Rechnung offen' });
    expect(await screen.findByRole('button', { name: 'Resume: Berg Sanitär GmbH' })).toBeTruthy();
  });

  it('resumes a suspended company after a confirmation', async () => {
    signedInAs('Administrator');
    const suspended = {
      ...company,
      suspendedAt: '2026-11-24T10:00:00.000Z',
      suspendedReason: 'Rechnung offen',
    };
    const server = fakeServer({
      'GET /api/v1/admin/companies': () => page([suspended]),
      [`POST /api/v1/admin/companies/${COMPANY_ID}/resume`]: () => company,
    });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    renderWithApp(<CompaniesPage />, '/admin/companies');
    fireEvent.click(await screen.findByRole('button', { name: 'Resume: Berg Sanitär GmbH' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Resume' }));
    await screen.findByText('The company has been resumed.');
  });

  it('offers staff, who only read companies, no suspend (it would end in 403)', async () => {
    signedInAs('Staff');
    vi.stubGlobal('fetch', vi.fn(fakeServer({ 'GET /api/v1/admin/companies': () => page([company]) }).fetch));
    renderWithApp(<CompaniesPage />, '/admin/companies');
    const row = within((await screen.findByText('Berg Sanitär GmbH')).closest('tr')!);
    expect(row.getByText('Active')).toBeTruthy();
    expect(row.queryByRole('button', { name: 'Suspend: Berg Sanitär GmbH' })).toBeNull();
  });
});
