import { screen } from '@testing-library/react';
import { authContracts } from '@werkwissen/shared';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, type Handler } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import ConfirmEmailPage from './confirm-email-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const pages = (
  <Routes>
    <Route path="/confirm-email" element={<ConfirmEmailPage />} />
    <Route path="/token-error" element={<p>token error page</p>} />
  </Routes>
);

function stubServer(answer: Handler<typeof authContracts.confirmEmailChange>) {
  return fakeApi().on(authContracts.confirmEmailChange, answer);
}

describe('the e-mail change confirmation page', () => {
  it('sends the token of the link once and shows the server’s answer, with the way to sign in', async () => {
    const api = stubServer(() => ({
      message: 'Your email address is now neu@firma.example. Use it to sign in from now on.',
    }));
    renderWithApp(pages, '/confirm-email?token=abc123def456');
    expect(await screen.findByText(/Your email address is now neu@firma.example/)).toBeTruthy();
    const calls = api.calls(authContracts.confirmEmailChange);
    expect(calls.map((call) => call.body)).toEqual([{ token: 'abc123def456' }]);
    expect(screen.getByRole('link', { name: 'Go to sign-in' }).getAttribute('href')).toBe('/login');
  });

  it('sends an expired or used link to the token error page', async () => {
    stubServer(() => apiError(400, 'TOKEN_INVALID', 'This link is invalid or has expired.'));
    renderWithApp(pages, '/confirm-email?token=old-token-0001');
    expect(await screen.findByText('token error page')).toBeTruthy();
  });

  it('shows a refusal such as a meanwhile taken address', async () => {
    stubServer(() => apiError(409, 'EMAIL_TAKEN', 'An account with this email already exists.'));
    renderWithApp(pages, '/confirm-email?token=late-token-0001');
    expect(await screen.findByText('An account with this email already exists.')).toBeTruthy();
  });
});
