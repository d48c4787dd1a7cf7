import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  type GoogleApp,
  googleConnectorContracts,
  type MicrosoftApp,
  microsoftConnectorContracts,
} from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { OAuthAppSection } from './oauth-app-section.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const unconfigured: MicrosoftApp = {
  configured: false,
  clientId: '',
  clientSecretSet: false,
  tenant: 'organizations',
  loginUrl: 'https://login.microsoftonline.com',
  graphUrl: 'https://graph.microsoft.com/v1.0',
  redirectUri: 'https://wissen.example/connectors/microsoft365/callback',
  updatedAt: null,
};

describe('the Microsoft 365 app in the system settings', () => {
  it('shows the redirect URI to register and saves the client id and secret', async () => {
    let current = unconfigured;
    const api = fakeApi()
      .on(microsoftConnectorContracts.getApp, () => current)
      .on(microsoftConnectorContracts.saveApp, ({ data }) => {
        current = {
          ...unconfigured,
          configured: true,
          clientSecretSet: true,
          clientId: data.clientId,
          updatedAt: '2025-03-01T09:00:00.000Z',
        };
        return current;
      });
    signedInAs('Administrator');
    renderWithApp(<OAuthAppSection kind="microsoft" canEdit />);

    expect(await screen.findByText(unconfigured.redirectUri)).toBeTruthy();
    expect(screen.getByText('Not configured yet')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Application (client) ID'), { target: { value: ' app-id ' } });
    fireEvent.change(screen.getByLabelText('Client secret'), { target: { value: 'geheim' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls(microsoftConnectorContracts.saveApp)).toHaveLength(1));
    expect(api.last(microsoftConnectorContracts.saveApp)?.body).toEqual({
      clientId: 'app-id',
      clientSecret: 'geheim',
      tenant: 'organizations',
      loginUrl: 'https://login.microsoftonline.com',
      graphUrl: 'https://graph.microsoft.com/v1.0',
    });
    expect(await screen.findByText('Configured')).toBeTruthy();
    expect(screen.getByText('Leave empty to keep the stored secret.')).toBeTruthy();
  });
});

describe('the Google app in the system settings', () => {
  it('shows the redirect URI to register and saves the client id, secret and addresses', async () => {
    const unset: GoogleApp = {
      configured: false,
      clientId: '',
      clientSecretSet: false,
      authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      driveUrl: 'https://www.googleapis.com/drive/v3',
      redirectUri: 'https://wissen.example/connectors/googledrive/callback',
      updatedAt: null,
    };
    let current = unset;
    const api = fakeApi()
      .on(googleConnectorContracts.getApp, () => current)
      .on(googleConnectorContracts.saveApp, ({ data }) => {
        current = {
          ...unset,
          ...data,
          configured: true,
          clientSecretSet: true,
          updatedAt: '2025-03-01T09:00:00.000Z',
        };
        return current;
      });
    signedInAs('Administrator');
    renderWithApp(<OAuthAppSection kind="google" canEdit />);

    expect(await screen.findByText(unset.redirectUri)).toBeTruthy();
    expect(screen.getByText('Google Drive connectors')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Client ID'), {
      target: { value: ' 123.apps.googleusercontent.com ' },
    });
    fireEvent.change(screen.getByLabelText('Client secret'), { target: { value: 'GOCSPX-geheim' } });
    fireEvent.change(screen.getByLabelText('Google Drive API address'), {
      target: { value: 'https://drive.proxy.example/drive/v3' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls(googleConnectorContracts.saveApp)).toHaveLength(1));
    expect(api.last(googleConnectorContracts.saveApp)?.body).toEqual({
      clientId: '123.apps.googleusercontent.com',
      clientSecret: 'GOCSPX-geheim',
      authUrl: unset.authUrl,
      tokenUrl: unset.tokenUrl,
      driveUrl: 'https://drive.proxy.example/drive/v3',
    });
    expect(await screen.findByText('Configured')).toBeTruthy();
    expect(screen.getByText('Leave empty to keep the stored secret.')).toBeTruthy();
  });
});
