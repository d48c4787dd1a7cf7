import { FALLBACK_LANGUAGE, type PublicConfig, systemContracts } from '@werkwissen/shared';
import { useEffect, useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { call } from '../api/http.ts';
import { AuthProvider } from '../auth/auth-context.tsx';
import { readSession } from '../auth/session-storage.ts';
import { PageLoadProvider } from '../components/page-load-bar.tsx';
import { SnackbarProvider } from '../components/snackbar.tsx';
import { i18next, initI18n, pickLanguage } from '../i18n/i18n.ts';
import { GuardedRoute } from '../routing/guarded-route.tsx';
import { SettingsProvider } from '../settings/settings-context.tsx';
import { AppThemeProvider } from '../theme/theme-provider.tsx';
import { ConfigContext } from './config-context.tsx';

const router = createBrowserRouter([{ path: '*', element: <GuardedRoute /> }]);

/** Loads the public configuration and the language, then renders the providers and the router. */
export function App() {
  const [config, setConfig] = useState<PublicConfig | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    call(systemContracts.config)
      .then(async (cfg) => {
        const stored = readSession();
        const userLanguage = typeof stored === 'object' ? stored.userData.language : undefined;
        await initI18n(pickLanguage(userLanguage, cfg.defaultLanguage));
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
      <SettingsProvider defaultTheme={config.theme.mode}>
        <AppThemeProvider config={config}>
          <SnackbarProvider>
            <PageLoadProvider>
              <AuthProvider>
                <RouterProvider router={router} />
              </AuthProvider>
            </PageLoadProvider>
          </SnackbarProvider>
        </AppThemeProvider>
      </SettingsProvider>
    </ConfigContext.Provider>
  );
}
