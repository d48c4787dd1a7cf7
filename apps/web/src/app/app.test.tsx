import { cleanup, render, screen } from '@testing-library/react';
import {
  adminPeopleContracts,
  authContracts,
  chatContracts,
  divisionContracts,
  type MeResponse,
  parseConfig,
  systemContracts,
  tagContracts,
  toPublicConfig,
  type UserData,
} from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../i18n/i18n.ts';
import { apiError, fakeApi, page } from '../test/fake-api.ts';
import { signedInAs, storage } from '../test/fixtures.ts';
import { App } from './app.tsx';

afterEach(() => {
  // The app's start may go on after a test has seen what it looks for: unmounted, nothing of it runs once the test
  // environment is gone.
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

// The whole app starts here, its lazy layout and pages compiled on first use: 1.2 s on a quiet machine, more than the
// 10 s this wait had beside CI's other passes (run 23). The wait is for the start, not a limit on its speed.
describe('the start of the app', () => {
  it('paints in the language saved on the server, not the stale copy stored on this device', async () => {
    signedInAs('Employee');
    const stored = JSON.parse(localStorage.getItem('userData')!) as UserData;
    localStorage.setItem('userData', JSON.stringify({ ...stored, language: 'ar' }));
    localStorage.setItem('language', 'ar');
    const parsed = parseConfig({});
    if (!parsed.ok) throw new Error('default configuration is invalid');
    const config = { ...toPublicConfig(parsed.config), defaultLanguage: 'en' as const };
    fakeApi()
      .on(systemContracts.config, () => config)
      .on(authContracts.me, () => ({
        userData: { ...stored, language: 'de' },
        userRole: 'Employee',
        userAbilityRules: JSON.parse(localStorage.getItem('userAbilityRules')!),
        csrfToken: 'x',
      }))
      // What the employee's first page asks for: nothing yet.
      .on(chatContracts.list, () => page([], 100))
      .on(chatContracts.options, () => ({
        providers: [],
        defaultProvider: 'builtin',
        speech: { available: false, provider: null, reason: null },
      }))
      .on(divisionContracts.list, () => ({ items: [], limit: 3, storage }))
      .on(tagContracts.list, () => ({ items: [] }));
    const languages: string[] = [];
    i18next.on('languageChanged', (lng) => languages.push(lng));

    render(<App />);
    await screen.findAllByRole('navigation', {}, { timeout: 45_000 });
    expect(document.documentElement.lang).toBe('de');
    expect(document.documentElement.dir).toBe('ltr');
    expect(languages).not.toContain('ar');
    expect(JSON.parse(localStorage.getItem('userData')!).language).toBe('de');
  });

  it('goes back to the operator when a view as another user ran out while the app was closed', async () => {
    signedInAs('DataManager');
    localStorage.setItem(
      'impersonation',
      JSON.stringify({ by: 'admin@werkwissen.example', expiresAt: '2026-01-01T00:00:00.000Z' }),
    );
    const admin: MeResponse = {
      userData: { ...JSON.parse(localStorage.getItem('userData')!), kind: 'Administrator', companyId: null },
      userRole: 'Administrator',
      userAbilityRules: [{ action: 'manage', subject: 'all' }],
      csrfToken: 'x',
      impersonation: null,
    };
    const parsed = parseConfig({});
    if (!parsed.ok) throw new Error('default configuration is invalid');
    const config = toPublicConfig(parsed.config);
    const replace = vi.spyOn(window.location, 'replace').mockImplementation(() => {});
    const expired = () => apiError(401, 'SESSION_EXPIRED', 'Expired.');
    const api = fakeApi()
      .on(systemContracts.config, () => config)
      .on(adminPeopleContracts.endImpersonation, () => admin)
      .on(authContracts.me, expired)
      .on(authContracts.refresh, expired);
    render(<App />);
    await vi.waitFor(() => expect(replace).toHaveBeenCalledWith('/admin/dashboard'));
    // The page load of the operator's home is under way: the app must not render the old route meanwhile, whose
    // requests (refused here, as the view ran out) would end the operator's session. A CI run caught it doing so.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const sent = api.requests.map(({ url }) => url);
    expect(new Set(sent)).toEqual(
      new Set([
        '/api/v1/config',
        '/api/v1/auth/me',
        '/api/v1/auth/refresh',
        '/api/v1/auth/impersonation/end',
      ]),
    );
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(JSON.parse(localStorage.getItem('userData')!).kind).toBe('Administrator');
    expect(localStorage.getItem('impersonation')).toBeNull();
  });
});
