import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { authContracts, type MeResponse, type OfferedProvider, oidcContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeApi, fakeApi } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import LoginPage from './login-page.tsx';

vi.mock('altcha', () => ({}));
afterEach(() => vi.unstubAllGlobals());

/** The server as the page meets it: the sign-in providers of the area (none unless given). */
function server(providers: OfferedProvider[] = []) {
  return fakeApi().on(oidcContracts.offered, () => ({ items: providers }));
}

/** The requests other than the providers' list. */
const asked = (api: FakeApi) => api.requests.filter((r) => r.contract !== oidcContracts.offered);

describe('the login form', () => {
  it('shows the spec texts for empty and invalid fields without calling the server', async () => {
    const api = server();
    renderWithApp(<LoginPage />, '/login');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findAllByText('This field is required');
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('Email must be valid!');
    expect(asked(api)).toEqual([]);
  });

  it('focuses the first field in error, checks a field again as it is typed after a submit, and sends the parsed address', async () => {
    const api = server().on(authContracts.login, () => apiError(401, 'INVALID_CREDENTIALS', ''));
    renderWithApp(<LoginPage />, '/login');
    const email = screen.getByLabelText('Email');
    const password = screen.getByLabelText('Password');
    fireEvent.input(password, { target: { value: 'whatever-1' } });
    expect(screen.queryByText('Email must be valid!')).toBeNull();
    fireEvent.input(email, { target: { value: 'not-an-email' } });
    // Before the first submit, typing checks nothing.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Email must be valid!')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('Email must be valid!');
    expect(document.activeElement).toBe(email);
    fireEvent.input(email, { target: { value: '  Ma@Firma.Example ' } });
    await waitFor(() => expect(screen.queryByText('Email must be valid!')).toBeNull());
    fireEvent.input(password, { target: { value: '' } });
    await screen.findByText('This field is required');
    fireEvent.input(password, { target: { value: 'whatever-1' } });
    await waitFor(() => expect(screen.queryByText('This field is required')).toBeNull());
    expect(asked(api)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(asked(api)).toHaveLength(1));
    expect(api.last(authContracts.login)?.body).toEqual({
      email: 'ma@firma.example',
      password: 'whatever-1',
      area: 'user',
    });
  });

  it('comes with the address filled in from another page, and the password field focused', async () => {
    server();
    renderWithApp(<LoginPage />, '/login?email=ma%40firma.example');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ma@firma.example');
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
  });

  it("shows the server's refusal in the interface language and sends the area of the page", async () => {
    const api = server().on(authContracts.login, () =>
      apiError(401, 'INVALID_CREDENTIALS', 'Falsche E-Mail-Adresse oder falsches Passwort.'),
    );
    renderWithApp(<LoginPage />, '/employee/login');
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'ma@firma.example' } });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'whatever-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(screen.getByTestId('login-error').textContent).toBe('Incorrect email or password.'),
    );
    expect(asked(api).map((r) => r.url)).toEqual(['/api/v1/auth/login']);
    expect(api.last(authContracts.login)?.body).toEqual({
      email: 'ma@firma.example',
      password: 'whatever-1',
      area: 'employee',
    });
  });

  it.each([
    ['ACCOUNT_DEACTIVATED', 'This account has been deactivated. Please contact support.'],
    ['COMPANY_SUSPENDED', "Your company's account has been suspended. Please contact support."],
  ])('says plainly when the account cannot sign in (%s)', async (code, text) => {
    server().on(authContracts.login, () => apiError(403, code, ''));
    renderWithApp(<LoginPage />, '/login');
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'dm@firma.example' } });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'richtig-Pass-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByTestId('login-error').textContent).toBe(text));
  });

  it('asks for the bot check when the server wants one, and sends its payload with the next attempt', async () => {
    const api = server().on(authContracts.login, ({ body }) =>
      body.botCheck
        ? apiError(401, 'INVALID_CREDENTIALS', '')
        : apiError(401, 'BOT_CHECK_REQUIRED', 'Bitte bestätigen Sie ...'),
    );
    renderWithApp(<LoginPage />, '/login');
    expect(document.querySelector('altcha-widget')).toBeNull();
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'dm@firma.example' } });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'whatever-1' } });
    // The widget announces its state the moment it is in the page (as a fast proof of work would): no render or effect
    // may come between, so the page must listen from the element's commit on.
    const verified = new Promise<boolean>((resolve) => {
      const observer = new MutationObserver(() => {
        const widget = document.querySelector('altcha-widget');
        if (!widget) return;
        observer.disconnect();
        const disabledWhileUnverified = (screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement)
          .disabled;
        widget.dispatchEvent(
          new CustomEvent('statechange', { detail: { state: 'verified', payload: 'proof-1' } }),
        );
        resolve(disabledWhileUnverified);
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByTestId('login-error').textContent).toMatch(/not a bot/));
    expect(await verified).toBe(true);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(asked(api)).toHaveLength(2));
    expect(api.calls(authContracts.login)[1]?.body).toMatchObject({
      email: 'dm@firma.example',
      botCheck: 'proof-1',
    });
  });

  it("offers the area's sign-in providers as links to the server's start of the flow, with the return path", async () => {
    // Google's script never loads here, so its own button is not drawn and the link stays.
    server([
      { id: 'google', kind: 'google', name: 'Google' },
      { id: '6f1c1e0e-0000-4000-8000-000000000001', kind: 'oidc', name: 'Keycloak' },
    ]).on(oidcContracts.googleButton, () => ({ clientId: 'client-1', nonce: 'nonce-1' }));
    renderWithApp(<LoginPage />, '/employee/login?to=%2Femployee%2Fchat');
    const google = await screen.findByRole('link', { name: 'Sign in with Google' });
    expect(google.getAttribute('href')).toBe(
      '/api/v1/auth/oidc/google/start?area=employee&to=%2Femployee%2Fchat',
    );
    expect(screen.getByRole('link', { name: 'Sign in with Keycloak' }).getAttribute('href')).toMatch(
      /^\/api\/v1\/auth\/oidc\/6f1c1e0e-0000-4000-8000-000000000001\/start\?area=employee/,
    );
  });

  /** An ID token in compact form, as the credential contract wants it (header.payload.signature). */
  const ID_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJnb29nbGUifQ.c2lnbmF0dXJl';

  it("draws Google's own button with the flow's nonce once its script is there, and hands its ID token to the server", async () => {
    const initialize = vi.fn();
    const renderButton = vi.fn((parent: HTMLElement) => {
      parent.append(Object.assign(document.createElement('button'), { textContent: 'Google' }));
    });
    vi.stubGlobal('google', { accounts: { id: { initialize, renderButton } } });
    const api = server([{ id: 'google', kind: 'google', name: 'Google' }])
      .on(oidcContracts.googleButton, () => ({ clientId: 'client-1', nonce: 'nonce-1' }))
      .on(oidcContracts.credential, () => ({ location: '/login?oidc=signedIn' }));
    renderWithApp(<LoginPage />, '/login?to=%2Fchat');
    await waitFor(() => expect(renderButton).toHaveBeenCalled());
    expect(asked(api)[0]?.url).toBe('/api/v1/auth/oidc/google/google-button?area=user&to=%2Fchat');
    expect(initialize).toHaveBeenCalledWith(
      expect.objectContaining({ client_id: 'client-1', nonce: 'nonce-1', ux_mode: 'popup' }),
    );
    expect(renderButton.mock.calls[0]![0]).toBe(screen.getByTestId('google-button'));
    // Drawn, Google's button replaces our link to the redirect flow.
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Sign in with Google' })).toBeNull());

    const { callback } = initialize.mock.calls[0]![0] as { callback: (r: { credential: string }) => void };
    act(() => callback({ credential: ID_TOKEN }));
    await waitFor(() => expect(asked(api)).toHaveLength(2));
    expect(asked(api)[1]?.url).toBe('/api/v1/auth/oidc/credential');
    expect(api.last(oidcContracts.credential)?.body).toEqual({ credential: ID_TOKEN });
  });

  it("shows a provider's failed sign-in in the spec's words", async () => {
    server();
    renderWithApp(<LoginPage />, '/login?oidcError=OIDC_NO_ACCOUNT');
    expect(screen.getByTestId('login-error').textContent).toBe('No users found with this email');
  });

  it('asks for the second factor when a provider sign-in comes back needing it', async () => {
    server();
    renderWithApp(<LoginPage />, '/admin/auth/login?secondFactor=verify');
    expect(await screen.findByText('Two-factor authentication')).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('loads the signed-in user when a provider sign-in comes back signed in', async () => {
    const me: MeResponse = {
      userData: {
        id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
        email: 'ida@firma.example',
        firstName: 'Ida',
        lastName: 'Provider',
        fullName: 'Ida Provider',
        phone: null,
        language: 'en',
        country: null,
        kind: 'DataManager',
        companyId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
        companyName: null,
        emailVerified: true,
        createdAt: '2026-01-01T10:00:00.000Z',
      },
      userRole: 'DataManager',
      userAbilityRules: [],
      csrfToken: 'csrf',
      impersonation: null,
    };
    const api = server().on(authContracts.me, () => me);
    renderWithApp(<LoginPage />, '/login?oidc=signedIn&to=%2Ffiles');
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem('userData') ?? 'null')?.email).toBe(me.userData.email),
    );
    expect(asked(api)[0]?.url).toBe('/api/v1/auth/me');
  });
});
