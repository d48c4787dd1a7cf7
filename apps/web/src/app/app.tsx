import { FALLBACK_LANGUAGE, HOME_BY_KIND, type MeResponse, type PublicConfig } from '@werkwissen/shared';
import { useCallback, useEffect, useState } from 'react';
import { BrowserRouter } from 'react-router';
import { bootEndpoints } from '../api/boot-endpoints.ts';
import { ApiError, call } from '../api/http.ts';
import { loadAbilityBuilder } from '../auth/ability.ts';
import { AuthProvider } from '../auth/auth-context.tsx';
import { clearStoredSession, readSession, saveSession } from '../auth/session-storage.ts';
import { PageLoadProvider } from '../components/page-load-bar.tsx';
import { SnackbarProvider } from '../components/snackbar.tsx';
import { i18next, initI18n, pickLanguage, type StartSession, startLanguage } from '../i18n/i18n.ts';
import { GuardedRoute } from '../routing/guarded-route.tsx';
import { SettingsProvider } from '../settings/settings-context.tsx';
import { AppThemeProvider } from '../theme/theme-provider.tsx';
import { ConfigContext, ConfigReloadContext } from './config-context.tsx';

/**
 * With a stored session, asks the server who is signed in (alongside the configuration): its saved language is the
 * one to render. The answer is stored; a refusal ends the stored session; a network failure keeps it. 'leaving': the
 * app is already loading the operator's home after a view as another user ran out.
 */
async function confirmSession(): Promise<StartSession | 'leaving'> {
  const stored = readSession();
  if (typeof stored !== 'object') return undefined;
  try {
    const me: MeResponse = await call(bootEndpoints.me);
    saveSession(me);
    return me;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      if (stored.impersonation && (await backToOperator())) return 'leaving';
      clearStoredSession();
      return 'refused';
    }
    return undefined;
  }
}

/**
 * A view as another user that ran out while the app was closed: the operator's own session is still open, so the
 * app goes back to it (their home, a whole page load) instead of asking them to sign in again.
 */
async function backToOperator(): Promise<boolean> {
  try {
    const me = await call(bootEndpoints.endImpersonation);
    saveSession(me);
    window.location.replace(HOME_BY_KIND[me.userRole]);
    return true;
  } catch {
    return false;
  }
}

/** Loads the public configuration and the language, then renders the providers and the router. */
export function App() {
  const [config, setConfig] = useState<PublicConfig | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const reloadConfig = useCallback(async () => setConfig(await call(bootEndpoints.config)), []);

  useEffect(() => {
    const stored = readSession();
    const storedLanguage = typeof stored === 'object' ? stored.userData.language : undefined;
    // The splash stays until both have answered, so the first page is painted in its final language.
    const confirmed = confirmSession();
    // A signed-in user's rules need CASL, which loads beside them rather than with every first load. (Should it
    // fail, the router's wait for it reports the failure.)
    const ability = typeof stored === 'object' ? loadAbilityBuilder().catch(() => {}) : null;
    call(bootEndpoints.config)
      .then(async (cfg) => {
        const session = await confirmed;
        // The page is being replaced by the operator's home: rendering the old route meanwhile only sends requests
        // for a page that is going away (and a refused one, through the failed renewal, clears the stored session).
        if (session === 'leaving') return;
        await initI18n(startLanguage(session, storedLanguage, cfg.defaultLanguage));
        await ability;
        setConfig(cfg);
      })
      .catch(() =>
        // Without the configuration, say so in the browser's language if its strings can still be loaded.
        initI18n(pickLanguage(undefined, FALLBACK_LANGUAGE))
          .then(() => setFailure(i18next.t('errors.NETWORK')))
          .catch(() => setFailure('Network error or unexpected error.')),
      );
  }, []);

  if (failure) {
    return (
      <p role="alert" style={{ fontFamily: 'system-ui', padding: 24 }}>
        {failure}
      </p>
    );
  }
  if (!config) return null;
  return (
    <ConfigContext.Provider value={config}>
      <ConfigReloadContext.Provider value={reloadConfig}>
        <SettingsProvider defaultTheme={config.theme.mode}>
          <AppThemeProvider config={config}>
            <SnackbarProvider>
              <PageLoadProvider>
                <AuthProvider confirmed>
                  {/* Declarative mode: the guard resolves every path itself, and no page uses loaders or actions (the
                      data router would add ~40 KB to every first load). */}
                  <BrowserRouter>
                    <GuardedRoute />
                  </BrowserRouter>
                </AuthProvider>
              </PageLoadProvider>
            </SnackbarProvider>
          </AppThemeProvider>
        </SettingsProvider>
      </ConfigReloadContext.Provider>
    </ConfigContext.Provider>
  );
}
