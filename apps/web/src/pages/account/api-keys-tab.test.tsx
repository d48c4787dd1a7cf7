import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiKeyContracts, mcpOAuthContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { ApiKeysTab } from './api-keys-tab.tsx';

afterEach(() => vi.unstubAllGlobals());

const KEY = {
  id: '3f0e2b1a-1111-4222-8333-944455556666',
  name: 'n8n',
  prefix: 'ww_abcdefg',
  createdAt: '2026-02-01T10:00:00.000Z',
  lastUsedAt: '2026-02-03T10:00:00.000Z',
  questionCount: 1234,
  expiresAt: null,
};

describe('the API keys tab', () => {
  it('says what a key reaches, with the OpenAI and MCP addresses, and how many questions each key asked', async () => {
    signedInAs('DataManager');
    fakeApi()
      .on(apiKeyContracts.list, () => ({ items: [KEY], total: 1, page: 1, pageSize: 10 }))
      .on(mcpOAuthContracts.listApps, () => ({ items: [], total: 0, page: 1, pageSize: 10 }));
    renderWithApp(<ApiKeysTab />, '/account-settings/api-keys');
    await screen.findByText('n8n');
    expect(screen.getByText(/A key reaches only what you may/)).toBeTruthy();
    expect(screen.getByText(`${window.location.origin}/api/v1/openai/v1`).tagName).toBe('CODE');
    expect(screen.getByText(/MCP clients such as Claude Desktop/)).toBeTruthy();
    expect(screen.getByText(`${window.location.origin}/api/v1/mcp`).tagName).toBe('CODE');
    expect(screen.getByRole('columnheader', { name: /Questions/ })).toBeTruthy();
    expect(screen.getByText('1,234')).toBeTruthy();
  });

  it('lists the apps connected by sign-in and revokes one after asking', async () => {
    signedInAs('Administrator');
    const app = {
      grantId: 'g'.repeat(43),
      clientId: 'c-123',
      clientName: 'Claude',
      createdAt: '2026-02-01T10:00:00.000Z',
      expiresAt: '2026-03-03T10:00:00.000Z',
    };
    let apps = [app];
    const api = fakeApi()
      .on(apiKeyContracts.list, () => ({ items: [], total: 0, page: 1, pageSize: 10 }))
      .on(mcpOAuthContracts.listApps, () => ({ items: apps, total: apps.length, page: 1, pageSize: 10 }))
      .on(mcpOAuthContracts.revokeApp, () => {
        apps = [];
        return null;
      });
    renderWithApp(<ApiKeysTab />, '/account-settings/api-keys');
    expect(await screen.findByText('Claude')).toBeTruthy();
    expect(screen.getByText('c-123').tagName).toBe('CODE');
    fireEvent.click(screen.getByRole('button', { name: 'Revoke access: Claude' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Claude loses access at once and must ask you again.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke access' }));
    await screen.findByText('Access revoked.');
    expect(api.last(mcpOAuthContracts.revokeApp)!.params).toEqual({ grantId: app.grantId });
    await waitFor(() => expect(screen.queryByText('Claude')).toBeNull());
    expect(await screen.findByText('No app connected.')).toBeTruthy();
  });
});
