import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { oidcContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, type Reply } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { IdentitiesCard } from './identities-card.tsx';

afterEach(() => vi.unstubAllGlobals());

const IDENTITY = {
  id: '3f0e2b1a-1111-4222-8333-944455556666',
  providerId: '6f1c1e0e-0000-4000-8000-000000000001',
  providerName: 'Keycloak',
  email: 'kai@firma.example',
  createdAt: '2026-02-01T10:00:00.000Z',
  lastUsedAt: null,
};

/** The server: the caller's identities (one linked, Keycloak and Google offered), link and unlink. */
function stubServer(unlink: Reply | null = null) {
  let items = [IDENTITY];
  return fakeApi()
    .on(oidcContracts.identities, () => ({
      items,
      linkable: [
        { id: IDENTITY.providerId, kind: 'oidc', name: 'Keycloak' },
        { id: 'google', kind: 'google', name: 'Google' },
      ],
    }))
    .on(oidcContracts.unlink, () => {
      if (unlink) return unlink;
      items = [];
      return { message: 'The provider account is unlinked.' };
    })
    .on(oidcContracts.startLink, () => ({ url: 'https://idp.example/authorize?x=1' }));
}

describe('the linked sign-in providers of the security tab', () => {
  it('lists the linked account and unlinks it after the confirmation', async () => {
    signedInAs('DataManager');
    const api = stubServer();
    renderWithApp(<IdentitiesCard />, '/account-settings/security');
    await screen.findByText('Keycloak · kai@firma.example');
    fireEvent.click(screen.getByRole('button', { name: 'Unlink' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Unlink Keycloak?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    await screen.findByText('No provider account is linked.');
    const call = api.last(oidcContracts.unlink)!;
    expect(call.url.pathname).toBe(`/api/v1/account/identities/${IDENTITY.id}`);
  });

  it("shows the server's refusal to unlink the only way to sign in, and keeps the account", async () => {
    signedInAs('DataManager');
    stubServer(apiError(409, 'IDENTITY_LAST_SIGN_IN', ''));
    renderWithApp(<IdentitiesCard />, '/account-settings/security');
    await screen.findByText('Keycloak · kai@firma.example');
    fireEvent.click(screen.getByRole('button', { name: 'Unlink' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unlink' }));
    await screen.findByText('This is your only way to sign in. Set a password before you unlink it.');
    expect(screen.getByText('Keycloak · kai@firma.example')).toBeTruthy();
  });

  it('starts a link with the page to come back to, and tells the outcome it came back with', async () => {
    signedInAs('DataManager');
    const api = stubServer();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderWithApp(<IdentitiesCard />, '/account-settings/security?oidcError=OIDC_IDENTITY_TAKEN');
    await screen.findByText('This provider account is already linked to another user.');
    fireEvent.click(await screen.findByRole('button', { name: 'Link Google' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example/authorize?x=1'));
    const call = api.last(oidcContracts.startLink)!;
    expect(call.url.pathname).toBe('/api/v1/account/identities/google/link');
    expect(call.body).toEqual({ to: '/account-settings/security' });
  });
});
