import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  type Connector,
  connectorContracts,
  divisionContracts,
  fileContracts,
  googleConnectorContracts,
} from '@werkwissen/shared';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONSENT_DIVISION_KEY } from '../../api/connectors.ts';
import { changeLanguage, loadSignedInTexts } from '../../i18n/i18n.ts';
import { apiError, fakeApi, page } from '../../test/fake-api.ts';
import { connector, DIVISION_ID, division, signedInAs, storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { GoogleConsentPage } from './consent-callback-page.tsx';
import DivisionFilesPage from './division-files-page.tsx';

afterEach(async () => {
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
  await changeLanguage('en');
});

const googleConnector = connector({
  id: '66666666-6666-4666-8666-666666666666',
  kind: 'googledrive',
  name: 'Drive',
  url: 'https://www.googleapis.com/drive/v3/',
  userName: 'anna@handwerk.example',
});

/** The division's page with its connectors, as the data manager opens it. */
function divisionPage(connectors: Connector[] = []) {
  const api = fakeApi()
    .on(divisionContracts.list, () => ({ items: [division()], limit: 3, storage }))
    .on(connectorContracts.list, () => ({ items: connectors }))
    .on(fileContracts.list, () => page([]));
  signedInAs('DataManager');
  renderWithApp(<DivisionFilesPage />, `/divisions/${DIVISION_ID}`);
  return api;
}

async function googleDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Connect a folder' }));
  const dialog = within(await screen.findByRole('dialog'));
  fireEvent.change(dialog.getByLabelText('Source'), { target: { value: 'googledrive' } });
  return dialog;
}

describe('connecting a Google Drive folder', () => {
  it('offers Google Drive in the dialog and leaves for Google with the chosen shared drive and folder', async () => {
    const api = divisionPage().on(googleConnectorContracts.consent, () => ({
      authorizationUrl: 'https://accounts.example/o/oauth2/v2/auth?x=1',
    }));
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const dialog = await googleDialog();
    expect(dialog.getByText('Connect a Google Drive folder')).toBeTruthy();
    // No address, user or password: the login happens at Google.
    expect(dialog.queryByLabelText('App password')).toBeNull();
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'Drive' } });
    fireEvent.change(dialog.getByLabelText('Shared drive ID'), { target: { value: ' 0AbcUk9PVA ' } });
    fireEvent.change(dialog.getByLabelText('Folder ID'), { target: { value: '1xyz' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Continue to Google' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.example/o/oauth2/v2/auth?x=1'));
    expect(api.last(googleConnectorContracts.consent)?.params).toEqual({ divisionId: DIVISION_ID });
    expect(api.last(googleConnectorContracts.consent)?.body).toEqual({
      name: 'Drive',
      driveId: '0AbcUk9PVA',
      folderId: '1xyz',
      folder: '',
      fileTypes: [],
      intervalMinutes: 60,
    });
    expect(sessionStorage.getItem(CONSENT_DIVISION_KEY)).toBe(DIVISION_ID);
  });

  it('says so in the dialog while the operator has not registered the Google app', async () => {
    divisionPage().on(googleConnectorContracts.consent, () =>
      apiError(409, 'GOOGLE_APP_UNCONFIGURED', 'Google Drive cannot be connected yet.'),
    );
    const dialog = await googleDialog();
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'Drive' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Continue to Google' }));
    expect(
      await dialog.findByText(
        'Google Drive cannot be connected yet: the operator has not registered the Google app.',
      ),
    ).toBeTruthy();
  });

  it('tells to connect again when a Google Drive connector paused for a withdrawn access', async () => {
    divisionPage([
      {
        ...googleConnector,
        status: 'paused',
        syncState: 'idle',
        lastSyncAt: '2025-03-01T10:00:00.000Z',
        lastError: 'Google Drive withdrew access (consent revoked or expired). Connect the folder again.',
        lastErrorCode: 'revoked',
        failureCount: 1,
      },
    ]);
    const card = within(await screen.findByTestId('connector'));
    expect(card.getByRole('alert').textContent).toBe(
      'Google Drive withdrew access (consent revoked or expired). Connect the folder again. Paused: when Google withdrew access, disconnect the folder and connect it again; otherwise resume.',
    );
  });

  it('ends the connection once when Google sends the browser back, and opens the division', async () => {
    const api = fakeApi().on(googleConnectorContracts.complete, () => googleConnector);
    signedInAs('DataManager');
    sessionStorage.setItem(CONSENT_DIVISION_KEY, DIVISION_ID);
    renderWithApp(
      <Routes>
        <Route path="/connectors/googledrive/callback" element={<GoogleConsentPage />} />
        <Route path="/divisions/:divisionId" element={<p>the division’s page</p>} />
      </Routes>,
      '/connectors/googledrive/callback?state=v1.s.t.a&code=4/0abc&scope=https://www.googleapis.com/auth/drive.readonly',
    );
    expect(await screen.findByText('the division’s page')).toBeTruthy();
    expect(api.calls(googleConnectorContracts.complete).map((c) => c.body)).toEqual([
      { code: '4/0abc', state: 'v1.s.t.a' },
    ]);
    expect(sessionStorage.getItem(CONSENT_DIVISION_KEY)).toBeNull();
  });

  it('says why when Google gave no access (in Arabic, right to left), and leads back to the division', async () => {
    const api = fakeApi();
    signedInAs('DataManager');
    sessionStorage.setItem(CONSENT_DIVISION_KEY, DIVISION_ID);
    await changeLanguage('ar');
    await loadSignedInTexts();
    renderWithApp(
      <GoogleConsentPage />,
      '/connectors/googledrive/callback?error=access_denied&state=v1.s.t.a',
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('لم تمنح Google صلاحية الوصول. حاول مرة أخرى واسمح بقراءة Google Drive.');
    expect(document.documentElement.dir).toBe('rtl');
    expect(screen.getByRole('heading', { name: 'ربط Google Drive' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'العودة إلى القسم' }).getAttribute('href')).toBe(
      `/divisions/${DIVISION_ID}`,
    );
    expect(api.calls(googleConnectorContracts.complete)).toHaveLength(0);
  });
});
