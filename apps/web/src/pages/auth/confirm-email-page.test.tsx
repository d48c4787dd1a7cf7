import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render.tsx';
import ConfirmEmailPage from './confirm-email-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const pages = (
  <Routes>
    <Route path="/confirm-email" element={<ConfirmEmailPage />} />
    <Route path="/token-error" element={<p>token error page</p>} />
  </Routes>
);

function stubServer(answer: () => Response) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => answer());
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('the e-mail change confirmation page', () => {
  it('sends the token of the link once and shows the server’s answer, with the way to sign in', async () => {
    const fetch = stubServer(() =>
      Response.json({
        message: 'Your email address is now neu@firma.example. Use it to sign in from now on.',
      }),
    );
    renderWithApp(pages, '/confirm-email?token=abc123');
    expect(await screen.findByText(/Your email address is now neu@firma.example/)).toBeTruthy();
    const calls = fetch.mock.calls.filter(([url]) => url.endsWith('/auth/confirm-email-change'));
    expect(calls.map(([, init]) => JSON.parse(init!.body as string))).toEqual([{ token: 'abc123' }]);
    expect(screen.getByRole('link', { name: 'Go to sign-in' }).getAttribute('href')).toBe('/login');
  });

  it('sends an expired or used link to the token error page', async () => {
    stubServer(() =>
      Response.json(
        { error: { code: 'TOKEN_INVALID', message: 'This link is invalid or has expired.' } },
        { status: 400 },
      ),
    );
    renderWithApp(pages, '/confirm-email?token=old');
    expect(await screen.findByText('token error page')).toBeTruthy();
  });

  it('shows a refusal such as a meanwhile taken address', async () => {
    stubServer(() =>
      Response.json(
        { error: { code: 'EMAIL_TAKEN', message: 'An account with this email already exists.' } },
        { status: 409 },
      ),
    );
    renderWithApp(pages, '/confirm-email?token=late');
    expect(await screen.findByText('An account with this email already exists.')).toBeTruthy();
  });
});
