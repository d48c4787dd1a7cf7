import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  authContracts,
  type BillingOverview,
  billingContracts,
  type Division,
  divisionContracts,
  type MeResponse,
} from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { DIVISION_ID, division, signedInAs, storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import DivisionsPage from './divisions-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** The divisions list as the server answers it. */
const divisions = (items: Division[], limit = 3) => ({ items, limit, storage });

describe('the divisions page', () => {
  it('shows the storage used, the files of each division and what deleting one removes', async () => {
    fakeApi().on(divisionContracts.list, () => divisions([division({ fileCount: 4 })]));
    renderWithApp(<DivisionsPage />, '/divisions');

    const usage = await screen.findByTestId('storage-card');
    expect(within(usage).getByText('512 MB of 5 GB used')).toBeTruthy();
    expect(within(usage).getByRole('progressbar', { name: 'Storage' }).getAttribute('aria-valuenow')).toBe(
      '10',
    );

    const card = screen.getByTestId('division-card');
    expect(within(card).getByText('Files: 4 · Size: 3 MB')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Open files: Heizung' }).getAttribute('href')).toBe(
      `/divisions/${DIVISION_ID}`,
    );
    expect(within(card).getByRole('button', { name: 'Add file: Heizung' })).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Delete: Heizung' }));
    await screen.findByText(
      '"Heizung" and everything in it will be deleted, including its files and their passages. Employees keep their other divisions.',
    );
  });

  it("disables adding once the plan's divisions are used up, says why and leads to the plans", async () => {
    signedInAs('DataManager');
    const me: MeResponse = {
      userData: JSON.parse(localStorage.getItem('userData')!),
      userRole: 'DataManager',
      userAbilityRules: JSON.parse(localStorage.getItem('userAbilityRules')!),
      csrfToken: 'csrf',
      impersonation: null,
    };
    const billing: BillingOverview = {
      paymentsEnabled: true,
      subscription: null,
      plans: [],
      usage: [{ limit: 'divisions', used: 1, max: 1 }],
    };
    fakeApi()
      .on(authContracts.me, () => me)
      .on(billingContracts.overview, () => billing)
      .on(divisionContracts.list, () => divisions([division()], 1));
    renderWithApp(<DivisionsPage />, '/divisions');
    const note = await screen.findByTestId('plan-limit-note');
    expect(note.textContent).toContain(
      'Your plan allows at most 1 (Divisions). A larger plan lifts this limit.',
    );
    expect(within(note).getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe(
      '/account-settings/billing',
    );
    expect(screen.getByRole('button', { name: 'Add division' }).hasAttribute('disabled')).toBe(true);
  });

  it('creates a division with "Create" and renames one with "Save changes"', async () => {
    fakeApi().on(divisionContracts.list, () => divisions([division()]));
    renderWithApp(<DivisionsPage />, '/divisions');
    const card = await screen.findByTestId('division-card');

    fireEvent.click(screen.getAllByRole('button', { name: 'Add division' })[0]!);
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Save changes' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(card).getByRole('button', { name: 'Rename division: Heizung' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Save changes' })).toBeTruthy();
  });

  it('deletes a division after confirmation, says so and shows the list without it', async () => {
    let deleted = false;
    const api = fakeApi()
      .on(divisionContracts.remove, () => {
        deleted = true;
        return null;
      })
      .on(divisionContracts.list, () => divisions(deleted ? [] : [division()]));
    renderWithApp(<DivisionsPage />, '/divisions');
    const card = await screen.findByTestId('division-card');

    fireEvent.click(within(card).getByRole('button', { name: 'Delete: Heizung' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Division deleted.')).toBeTruthy();
    expect(await screen.findByText(/^No divisions yet\./)).toBeTruthy();
    expect(screen.queryByTestId('division-card')).toBeNull();
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      `/api/v1/divisions/${DIVISION_ID}`,
    ]);
  });

  it('says a name the server refuses under the field, keeping the dialog open', async () => {
    fakeApi()
      .on(divisionContracts.create, () => apiError(409, 'DIVISION_EXISTS', 'Diesen Bereich gibt es schon.'))
      .on(divisionContracts.list, () => divisions([division()]));
    renderWithApp(<DivisionsPage />, '/divisions');
    await screen.findByTestId('division-card');

    fireEvent.click(screen.getAllByRole('button', { name: 'Add division' })[0]!);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Name of the division'), { target: { value: 'Heizung' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('A division with this name already exists.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBe(dialog);
  });
});
