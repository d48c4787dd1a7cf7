import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { ApiKeysTab } from './api-keys-tab.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('the API keys tab', { timeout: 20_000 }, () => {
  it('says what a key reaches: the API as its user, and the MCP server at this installation’s address', async () => {
    signedInAs('DataManager');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.startsWith('/api/v1/api-keys')
          ? Response.json({ items: [], total: 0, page: 1, pageSize: 10 })
          : Response.json({ error: { code: 'NOT_FOUND', message: 'Not found.' } }, { status: 404 }),
      ),
    );
    renderWithApp(<ApiKeysTab />);
    expect(await screen.findByText(/It has your permissions/)).toBeTruthy();
    expect(screen.getByText(/MCP clients such as Claude Desktop/)).toBeTruthy();
    expect(screen.getByText(`${window.location.origin}/api/v1/mcp`).tagName).toBe('CODE');
  });
});
