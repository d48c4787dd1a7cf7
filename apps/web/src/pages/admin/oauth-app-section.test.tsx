import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { MicrosoftApp } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
    const saved: unknown[] = [];
    let current = unconfigured;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/api/v1/admin/microsoft-app' && init?.method === 'PUT') {
          const body = JSON.parse(String(init.body));
          saved.push(body);
          current = {
            ...unconfigured,
            configured: true,
            clientSecretSet: true,
            clientId: body.clientId,
            updatedAt: '2025-03-01T09:00:00.000Z',
          };
          return Response.json(current);
        }
        if (url === '/api/v1/admin/microsoft-app') return Response.json(current);
        return Response.json({ error: { code: 'NOT_FOUND', message: 'Not found.' } }, { status: 404 });
      }),
    );
    signedInAs('Administrator');
    renderWithApp(<OAuthAppSection kind="microsoft" canEdit />);

    expect(await screen.findByText(unconfigured.redirectUri)).toBeTruthy();
    expect(screen.getByText('Not configured yet')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Application (client) ID'), { target: { value: ' app-id ' } });
    fireEvent.change(screen.getByLabelText('Client secret'), { target: { value: 'geheim' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({
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
