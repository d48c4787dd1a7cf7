import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  type Connector,
  connectorContracts,
  divisionContracts,
  fileContracts,
  microsoftConnectorContracts,
} from '@werkwissen/shared';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONSENT_DIVISION_KEY } from '../../api/connectors.ts';
import { changeLanguage, loadSignedInTexts } from '../../i18n/i18n.ts';
import { apiError, fakeApi, page } from '../../test/fake-api.ts';
import { connector, DIVISION_ID, division, signedInAs, storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { MicrosoftConsentPage } from './consent-callback-page.tsx';
import DivisionFilesPage from './division-files-page.tsx';

afterEach(async () => {
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
  await changeLanguage('en');
});

const microsoftConnector = connector({
  kind: 'microsoft365',
  name: 'SharePoint',
  url: 'https://graph.microsoft.com/v1.0/drives/b!abc/root:/',
  userName: 'anna@contoso.example',
});

/** A server with the division, its connectors and no files. */
const divisionPage = (connectors: Connector[]) =>
  fakeApi()
    .on(divisionContracts.list, () => ({ items: [division()], limit: 3, storage }))
    .on(connectorContracts.list, () => ({ items: connectors }))
    .on(fileContracts.list, () => page([]));

describe('connecting a Microsoft 365 folder', () => {
  it('offers Microsoft 365 in the dialog and leaves for the consent page with the chosen drive and folder', async () => {
    const api = divisionPage([]).on(microsoftConnectorContracts.consent, () => ({
      authorizationUrl: 'https://login.example/organizations/oauth2/v2.0/authorize?x=1',
    }));
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    signedInAs('DataManager');
    renderWithApp(<DivisionFilesPage />, `/divisions/${DIVISION_ID}`);

    fireEvent.click(await screen.findByRole('button', { name: 'Connect a folder' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Connect a WebDAV folder')).toBeTruthy();
    fireEvent.change(dialog.getByLabelText('Source'), { target: { value: 'microsoft365' } });
    expect(dialog.getByText('Connect a Microsoft 365 folder')).toBeTruthy();
    // No address, user or password: the login happens at Microsoft.
    expect(dialog.queryByLabelText('App password')).toBeNull();
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'SharePoint' } });
    fireEvent.change(dialog.getByLabelText('Drive ID'), { target: { value: ' b!abc ' } });
    fireEvent.change(dialog.getByLabelText('Folder'), { target: { value: 'Preise' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Continue to Microsoft' }));

    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://login.example/organizations/oauth2/v2.0/authorize?x=1'),
    );
    expect(api.calls(microsoftConnectorContracts.consent).map((call) => call.body)).toEqual([
      { name: 'SharePoint', driveId: 'b!abc', folder: 'Preise', fileTypes: [], intervalMinutes: 60 },
    ]);
    expect(sessionStorage.getItem(CONSENT_DIVISION_KEY)).toBe(DIVISION_ID);
  });

  it('says so in the dialog while the operator has not registered the Microsoft app', async () => {
    divisionPage([]).on(microsoftConnectorContracts.consent, () =>
      apiError(409, 'MICROSOFT_APP_UNCONFIGURED', 'Microsoft 365 cannot be connected yet.'),
    );
    signedInAs('DataManager');
    renderWithApp(<DivisionFilesPage />, `/divisions/${DIVISION_ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Connect a folder' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.change(dialog.getByLabelText('Source'), { target: { value: 'microsoft365' } });
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'SharePoint' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Continue to Microsoft' }));
    expect(
      await dialog.findByText(
        'Microsoft 365 cannot be connected yet: the operator has not registered the Microsoft app.',
      ),
    ).toBeTruthy();
  });

  it('tells to connect again when a Microsoft 365 connector paused for a withdrawn consent', async () => {
    const revoked: Connector = {
      ...microsoftConnector,
      status: 'paused',
      syncState: 'idle',
      lastSyncAt: '2025-03-01T10:00:00.000Z',
      lastError: 'Microsoft 365 withdrew access (consent revoked or expired). Connect the folder again.',
      lastErrorCode: 'revoked',
      failureCount: 1,
    };
    divisionPage([revoked]);
    signedInAs('DataManager');
    renderWithApp(<DivisionFilesPage />, `/divisions/${DIVISION_ID}`);
    const card = within(await screen.findByTestId('connector'));
    expect(card.getByRole('alert').textContent).toBe(
      'Microsoft 365 withdrew access (consent revoked or expired). Connect the folder again. Paused: when Microsoft withdrew access, disconnect the folder and connect it again; otherwise resume.',
    );
  });

  it('ends the connection once when Microsoft sends the browser back, and opens the division', async () => {
    const api = fakeApi().on(microsoftConnectorContracts.complete, () => microsoftConnector);
    signedInAs('DataManager');
    sessionStorage.setItem(CONSENT_DIVISION_KEY, DIVISION_ID);
    renderWithApp(
      <Routes>
        <Route path="/connectors/microsoft365/callback" element={<MicrosoftConsentPage />} />
        <Route path="/divisions/:divisionId" element={<p>the division’s page</p>} />
      </Routes>,
      '/connectors/microsoft365/callback?code=abc&state=v1.s.t.a',
    );
    expect(await screen.findByText('the division’s page')).toBeTruthy();
    expect(api.calls(microsoftConnectorContracts.complete).map((call) => call.body)).toEqual([
      { code: 'abc', state: 'v1.s.t.a' },
    ]);
    expect(sessionStorage.getItem(CONSENT_DIVISION_KEY)).toBeNull();
  });

  it('says why when Microsoft gave no access (in Arabic, right to left), and leads back to the division', async () => {
    const api = fakeApi();
    signedInAs('DataManager');
    sessionStorage.setItem(CONSENT_DIVISION_KEY, DIVISION_ID);
    // The page is the shell's: the shell loads the signed-in texts (`guarded-route.tsx`) before it shows.
    await changeLanguage('ar');
    await loadSignedInTexts();
    renderWithApp(
      <MicrosoftConsentPage />,
      '/connectors/microsoft365/callback?error=access_denied&state=v1.s.t.a',
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'لم تمنح Microsoft صلاحية الوصول. حاول مرة أخرى، أو اطلب من مسؤول Microsoft 365 الموافقة على التطبيق.',
    );
    expect(document.documentElement.dir).toBe('rtl');
    expect(screen.getByRole('link', { name: 'العودة إلى القسم' }).getAttribute('href')).toBe(
      `/divisions/${DIVISION_ID}`,
    );
    expect(api.requests.some(({ url }) => url.includes('microsoft365/complete'))).toBe(false);
  });
});
