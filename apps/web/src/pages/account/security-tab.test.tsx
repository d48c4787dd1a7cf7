import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { SecurityTab } from './security-tab.tsx';

afterEach(() => vi.unstubAllGlobals());

function stubChangePassword() {
  const fetch = vi.fn(async (url: string, _init: RequestInit = {}) =>
    url.endsWith('/auth/change-password')
      ? Response.json({ message: 'Password changed successfully.' })
      : Response.json({ error: { code: 'NOT_FOUND', message: 'Not found.' } }, { status: 404 }),
  );
  vi.stubGlobal('fetch', fetch);
  return () =>
    fetch.mock.calls
      .filter(([url]) => url.endsWith('/auth/change-password'))
      .map(([, init]) => JSON.parse(init!.body as string));
}

function fill() {
  fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'alt-Pass-1' } });
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'ganz-neu-42' } });
  fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'ganz-neu-42' } });
}

describe('the change-password form', { timeout: 20_000 }, () => {
  it('revokes the API keys too when the box is ticked', async () => {
    signedInAs('DataManager');
    const sent = stubChangePassword();
    renderWithApp(<SecurityTab />);
    fill();
    const box = screen.getByRole('checkbox', { name: /Also revoke all my API keys/ });
    expect((box as HTMLInputElement).checked).toBe(false);
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]).toEqual({
      currentPassword: 'alt-Pass-1',
      password: 'ganz-neu-42',
      confirmPassword: 'ganz-neu-42',
      revokeApiKeys: true,
    });
  });

  it('keeps the keys by default, and does not offer the box to a user without API keys', async () => {
    signedInAs('Employee');
    const sent = stubChangePassword();
    renderWithApp(<SecurityTab />);
    expect(screen.queryByRole('checkbox')).toBeNull();
    fill();
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0].revokeApiKeys).toBe(false);
  });
});
