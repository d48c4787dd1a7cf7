import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mcpOAuthContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import OAuthConsentPage from './oauth-consent-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const UID = 'h2Lk9QpZr4XyTuVw1234567890abcdEFGHijklmnopq';
const CONSENT = {
  clientName: 'Claude',
  clientId: 'c-123',
  redirectHost: 'claude.ai',
  resource: 'https://wissen.example/api/v1/mcp',
  email: 'kai@firma.example',
  accessTokenSeconds: 3600,
  refreshTokenSeconds: 30 * 86_400,
};

const page = () => renderWithApp(<OAuthConsentPage />, `/oauth/consent/${UID}`);

describe('the consent page of an MCP client', () => {
  it('says who asks, as whom and for how long, and sends the browser on with the answer', async () => {
    signedInAs('DataManager');
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = fakeApi()
      .on(mcpOAuthContracts.consent, () => CONSENT)
      .on(mcpOAuthContracts.answer, () => ({ redirectTo: '/api/v1/oauth/auth/resume' }));
    page();
    await screen.findByText('Claude asks to use the company knowledge through the MCP server.');
    expect(screen.getByText(/It will act as you \(kai@firma\.example\)/)).toBeTruthy();
    expect(screen.getByText('Your answer goes back to claude.ai.')).toBeTruthy();
    expect(
      screen.getByText(/Access lasts 1 hour\(s\) at a time and is renewed for up to 30 days/),
    ).toBeTruthy();
    expect(api.last(mcpOAuthContracts.consent)!.params).toEqual({ uid: UID });
    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/v1/oauth/auth/resume'));
    expect(api.last(mcpOAuthContracts.answer)!.body).toEqual({ allow: true });
  });

  it('sends a denial', async () => {
    signedInAs('Staff');
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = fakeApi()
      .on(mcpOAuthContracts.consent, () => CONSENT)
      .on(mcpOAuthContracts.answer, () => ({ redirectTo: '/api/v1/oauth/auth/denied' }));
    page();
    fireEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/v1/oauth/auth/denied'));
    expect(api.last(mcpOAuthContracts.answer)!.body).toEqual({ allow: false });
  });

  it('says so when the request is no longer valid (another browser, or expired)', async () => {
    signedInAs('DataManager');
    fakeApi().on(mcpOAuthContracts.consent, () => apiError(404, 'NOT_FOUND', 'Not found.'));
    page();
    await screen.findByText('This request is no longer valid. Start connecting again in the app.');
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull();
  });
});
