import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { adminPeopleContracts, type MeResponse } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/fake-api.ts';
import { signedInAs } from '../test/fixtures.ts';
import { renderWithApp, useLanguage } from '../test/render.tsx';
import { ImpersonationBanner } from './impersonation-banner.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const inHalfAnHour = () => new Date(Date.now() + 30 * 60_000).toISOString();

function viewingAsDataManager(expiresAt = inHalfAnHour()) {
  signedInAs('DataManager');
  localStorage.setItem('impersonation', JSON.stringify({ by: 'admin@werkwissen.example', expiresAt }));
}

const adminMe: MeResponse = {
  userData: {
    id: '0a0b0c0d-0000-4000-8000-000000000001',
    email: 'admin@werkwissen.example',
    firstName: 'Ada',
    lastName: 'Admin',
    fullName: 'Ada Admin',
    phone: null,
    language: 'en',
    country: null,
    kind: 'Administrator',
    companyId: null,
    companyName: null,
    emailVerified: true,
    createdAt: '2025-01-01T00:00:00.000Z',
  },
  userRole: 'Administrator',
  userAbilityRules: [{ action: 'manage', subject: 'all' }],
  csrfToken: 'x',
  impersonation: null,
};

/** The session check at start stays unanswered: these tests are about the stored session. */
const quietServer = () => fakeApi();

const renderBanner = () =>
  renderWithApp(
    <QueryClientProvider client={new QueryClient()}>
      <ImpersonationBanner />
    </QueryClientProvider>,
  );

describe('the impersonation banner', () => {
  it('is not shown in an ordinary session', () => {
    signedInAs('DataManager');
    quietServer();
    renderBanner();
    expect(screen.queryByTestId('impersonation-banner')).toBeNull();
  });

  it('says whom the operator views as and goes back to the admin session', async () => {
    viewingAsDataManager();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    // Only the way back answers; the session check at start stays unanswered.
    const api = fakeApi().on(adminPeopleContracts.endImpersonation, () => adminMe);
    renderBanner();
    expect(screen.getByTestId('impersonation-banner').textContent).toContain(
      'You are viewing as \u2068Kai Berg\u2069 (\u2068kai@firma.example\u2069).',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Back to admin' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/admin/dashboard'));
    expect(api.requests).toContainEqual(
      expect.objectContaining({ method: 'POST', url: '/api/v1/auth/impersonation/end' }),
    );
    expect(localStorage.getItem('impersonation')).toBeNull();
    expect(JSON.parse(localStorage.getItem('userData')!).email).toBe('admin@werkwissen.example');
  });

  it('goes back by itself when the time is up', async () => {
    viewingAsDataManager(new Date(Date.now() - 1000).toISOString());
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    fakeApi().on(adminPeopleContracts.endImpersonation, () => adminMe);
    renderBanner();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/admin/dashboard'));
  });

  it('is written in German and in Arabic', async () => {
    viewingAsDataManager();
    quietServer();
    await useLanguage('de');
    const { unmount } = renderBanner();
    expect(screen.getByRole('button', { name: 'Zurück zur Verwaltung' })).toBeTruthy();
    unmount();
    await useLanguage('ar');
    renderBanner();
    expect(screen.getByRole('button', { name: 'العودة إلى الإدارة' })).toBeTruthy();
  });
});
