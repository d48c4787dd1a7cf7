import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/fake-api.ts';
import { signedInAs } from '../test/fixtures.ts';
import { renderWithApp } from '../test/render.tsx';
import { GuardedRoute } from './guarded-route.tsx';

afterEach(() => vi.unstubAllGlobals());

function stubServer() {
  fakeApi();
}

describe('an unknown address', () => {
  it('shows the not-found page inside the app shell for a signed-in user', async () => {
    stubServer();
    signedInAs('DataManager');
    renderWithApp(<GuardedRoute />, '/no-such-page');
    await screen.findByRole('heading', { name: 'Page not found' });
    const nav = await screen.findByTestId('vertical-nav');
    // The navigation of the user's own area.
    expect(nav.querySelector('a[href="/divisions"]')).toBeTruthy();
  });

  it('shows the not-found page inside the shell of the employee area for an employee', async () => {
    stubServer();
    signedInAs('Employee');
    renderWithApp(<GuardedRoute />, '/no-such-page');
    await screen.findByRole('heading', { name: 'Page not found' });
    const nav = await screen.findByTestId('vertical-nav');
    expect(nav.querySelector('a[href="/divisions"]')).toBeNull();
    expect(nav.querySelector('a[href^="/employee/"]')).toBeTruthy();
  });

  it('keeps the blank layout for a visitor', async () => {
    stubServer();
    renderWithApp(<GuardedRoute />, '/no-such-page');
    await screen.findByRole('heading', { name: 'Page not found' });
    expect(screen.queryByTestId('vertical-nav')).toBeNull();
  });
});
