import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { oidcContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { SignInProvidersSection } from './sign-in-providers-section.tsx';

afterEach(() => vi.unstubAllGlobals());

const CALLBACK = 'https://wissen.example/api/v1/auth/oidc/callback';

function stubServer() {
  return fakeApi()
    .on(oidcContracts.create, () => apiError(422, 'OIDC_DISCOVERY_FAILED', ''))
    .on(oidcContracts.list, () => ({
      callbackUrl: CALLBACK,
      items: [
        {
          id: 'google',
          kind: 'google',
          name: 'Google',
          issuer: 'https://accounts.google.com',
          clientId: 'abc.apps.googleusercontent.com',
          clientSecretSet: true,
          allowedDomains: [],
          areas: ['user', 'employee'],
          enabled: true,
          source: 'environment',
        },
      ],
    }));
}

// MUI renders slowly in happy-dom when the whole suite shares the processor.
describe('the sign-in providers of the system settings', () => {
  it('shows the redirect URI, the origin for Google’s button and the environment’s Google, and checks a new provider before sending it', async () => {
    signedInAs('Administrator');
    const api = stubServer();
    renderWithApp(<SignInProvidersSection canEdit />);
    await screen.findByText(CALLBACK);
    // Google's button needs the site's origin registered as well.
    expect(screen.getByTestId('google-origin').textContent).toBe('https://wissen.example');
    expect(
      screen.getByText('From the environment (GOOGLE_* keys); saving a Google provider replaces it.'),
    ).toBeTruthy();
    // The environment's provider cannot be deleted, only replaced.
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Add provider' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.change(dialog.getByLabelText('Display name'), { target: { value: 'Keycloak' } });
    fireEvent.change(dialog.getByLabelText('Issuer / discovery URL'), {
      target: { value: 'https://sso.firma.example/realms/w' },
    });
    fireEvent.change(dialog.getByLabelText('Client ID'), { target: { value: 'werkwissen' } });
    fireEvent.change(dialog.getByLabelText('Allowed e-mail domains'), {
      target: { value: 'firma.example, not a domain' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Save changes' }));
    await dialog.findByText('Enter domains like example.com.');
    expect(api.calls(oidcContracts.create)).toHaveLength(0);

    fireEvent.change(dialog.getByLabelText('Allowed e-mail domains'), {
      target: { value: 'firma.example, Werk.example' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls(oidcContracts.create)).toHaveLength(1));
    expect(api.last(oidcContracts.create)?.body).toEqual({
      kind: 'oidc',
      name: 'Keycloak',
      issuer: 'https://sso.firma.example/realms/w',
      clientId: 'werkwissen',
      allowedDomains: ['firma.example', 'werk.example'],
      areas: ['user'],
      enabled: true,
    });
    // The server could not read the discovery document: said in the snackbar, the dialog stays open.
    await screen.findByText("The provider's configuration could not be read. Check the issuer address.");
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
