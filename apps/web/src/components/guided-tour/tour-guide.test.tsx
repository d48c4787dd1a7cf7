import { fireEvent, screen, waitFor } from '@testing-library/react';
import { type Tour, tourContracts } from '@werkwissen/shared';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HelpMenu } from '../../layouts/help-menu.tsx';
import { fakeApi } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { TourProvider } from './tour-context.tsx';
import { TourGuide, TourNavbarEntry } from './tour-guide.tsx';

afterEach(() => vi.unstubAllGlobals());

/** A server whose tour answers `tour`, keeping what the client sends. */
function stubServer(tour: Tour) {
  let current = tour;
  const api = fakeApi()
    .on(tourContracts.update, ({ body }) => {
      current = { ...current, status: body.state, currentStep: body.currentStep ?? current.currentStep };
      return current;
    })
    .on(tourContracts.get, () => current);
  return () => api.calls(tourContracts.update).map((call) => call.body);
}

const tour = (overrides: Partial<Tour> = {}): Tour => ({
  version: 1,
  steps: [
    { id: 'logo', done: true },
    { id: 'companyDetails', done: false },
    { id: 'documents', done: false },
    { id: 'whatsapp', done: false },
  ],
  currentStep: 'companyDetails',
  status: 'new',
  ...overrides,
});

function renderTour(path: string) {
  return renderWithApp(
    <TourProvider>
      <TourNavbarEntry />
      <HelpMenu />
      <Routes>
        <Route
          path="/account-settings/company"
          element={
            <>
              <button type="button" data-tour="logo">
                Upload logo
              </button>
              <form data-tour="company-details" aria-label="Company details" />
            </>
          }
        />
        <Route path="/divisions" element={<p>Divisions</p>} />
      </Routes>
      <TourGuide />
    </TourProvider>,
    path,
  );
}

describe('the guided tour', () => {
  it('shows the steps as the server found them done and points at the current step’s control', async () => {
    signedInAs('DataManager');
    stubServer(tour());
    renderTour('/account-settings/company');
    const panel = await screen.findByTestId('tour-panel');
    expect(panel.textContent).toContain('1 of 4 done');
    expect(screen.getByTestId('tour-step-logo').getAttribute('data-done')).toBe('true');
    expect(screen.getByTestId('tour-step-companyDetails').getAttribute('data-done')).toBe('false');
    const tooltip = await screen.findByTestId('tour-tooltip');
    expect(tooltip.textContent).toContain('Step 2 of 4');
    expect(tooltip.textContent).toContain('Complete your company details');
    fireEvent.click(screen.getByRole('button', { name: 'Got it' }));
    await waitFor(() => expect(screen.queryByTestId('tour-tooltip')).toBeNull());
    // The panel stays until the step is done or the tour is skipped.
    expect(screen.getByTestId('tour-panel')).toBeTruthy();
  });

  it('spotlights nothing where the step’s control is not on the page, and takes the user there', async () => {
    signedInAs('DataManager');
    const sent = stubServer(tour({ currentStep: 'documents', status: 'active' }));
    renderTour('/account-settings/company');
    // Away from the dashboard and the step's page the tour is folded into the navbar.
    fireEvent.click(await screen.findByRole('button', { name: 'Tour 1/4' }));
    const panel = await screen.findByTestId('tour-panel');
    expect(screen.queryByTestId('tour-tooltip')).toBeNull();
    expect(panel.textContent).toContain('Create a division and upload your first documents');
    fireEvent.click(screen.getByRole('button', { name: 'Go there' }));
    expect(await screen.findByText('Divisions')).toBeTruthy();
    await waitFor(() => expect(sent()).toEqual([{ state: 'active', currentStep: 'documents' }]));
    expect(screen.getByTestId('tour-panel')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Fold the guided tour away' }));
    await waitFor(() => expect(screen.queryByTestId('tour-panel')).toBeNull());
    expect(screen.getByRole('button', { name: 'Tour 1/4' })).toBeTruthy();
  });

  it('is skipped for good and opened again from the help menu where the user left it', async () => {
    signedInAs('DataManager');
    const sent = stubServer(tour({ currentStep: 'companyDetails', status: 'active' }));
    renderTour('/account-settings/company');
    await screen.findByTestId('tour-panel');
    fireEvent.click(screen.getAllByRole('button', { name: 'Skip tour' })[0]!);
    await waitFor(() => expect(screen.queryByTestId('tour-panel')).toBeNull());
    expect(sent()).toEqual([{ state: 'skipped', currentStep: 'companyDetails' }]);

    fireEvent.click(screen.getByRole('button', { name: 'Help' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Guided tour' }));
    const panel = await screen.findByTestId('tour-panel');
    expect(panel.textContent).toContain('1 of 4 done');
    await waitFor(() => expect(sent()).toContainEqual({ state: 'active' }));
    expect(screen.getByTestId('tour-step-companyDetails').className).toContain('Mui-selected');
  });

  it('is not offered to an employee, who cannot set the company up', async () => {
    signedInAs('Employee');
    stubServer(tour());
    renderTour('/account-settings/company');
    await screen.findByText('Upload logo');
    expect(screen.queryByRole('button', { name: 'Help' })).toBeNull();
    expect(screen.queryByTestId('tour-panel')).toBeNull();
  });
});
