import { screen } from '@testing-library/react';
import { apiKeyContracts } from '@werkwissen/shared';
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
    fakeApi().on(apiKeyContracts.list, () => ({ items: [KEY], total: 1, page: 1, pageSize: 10 }));
    renderWithApp(<ApiKeysTab />, '/account-settings/api-keys');
    await screen.findByText('n8n');
    expect(screen.getByText(/A key reaches only what you may/)).toBeTruthy();
    expect(screen.getByText(`${window.location.origin}/api/v1/openai/v1`).tagName).toBe('CODE');
    expect(screen.getByText(/MCP clients such as Claude Desktop/)).toBeTruthy();
    expect(screen.getByText(`${window.location.origin}/api/v1/mcp`).tagName).toBe('CODE');
    expect(screen.getByRole('columnheader', { name: /Questions/ })).toBeTruthy();
    expect(screen.getByText('1,234')).toBeTruthy();
  });
});
