import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { type Language, parseConfig, toPublicConfig } from '@werkwissen/shared';
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach } from 'vitest';
import en from '../../../../packages/shared/src/i18n/locales/en.json';
import { ConfigContext } from '../app/config-context.tsx';
import { loadAbilityBuilder } from '../auth/ability.ts';
import { AuthProvider } from '../auth/auth-context.tsx';
import { SnackbarProvider } from '../components/snackbar.tsx';
import { SettingsProvider } from '../settings/settings-context.tsx';
import { loadMuiLocale } from '../theme/mui-locale.ts';
import { AppThemeProvider } from '../theme/theme-provider.tsx';

const parsed = parseConfig({});
if (!parsed.ok) throw new Error('default configuration is invalid');
export const testConfig = toPublicConfig(parsed.config);

await i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation: en } },
  interpolation: { escapeValue: false },
});

// As at the app's start with a stored session (`app.tsx`), a signed-in user's rules are built at once.
await loadAbilityBuilder();

afterEach(async () => {
  cleanup();
  localStorage.clear();
  if (i18next.language !== 'en') await i18next.changeLanguage('en');
});

/** Switches the test's interface language (back to English after the test). */
export async function useLanguage(language: Language): Promise<void> {
  if (!i18next.hasResourceBundle(language, 'translation')) {
    const { default: resources } = (await import(
      `../../../../packages/shared/src/i18n/locales/${language}.json`
    )) as { default: Record<string, unknown> };
    i18next.addResourceBundle(language, 'translation', resources, true, true);
  }
  await loadMuiLocale(language);
  await i18next.changeLanguage(language);
}

/** Renders a component inside the app's providers, in English, at a path. */
export function renderWithApp(ui: ReactElement, path = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <ConfigContext.Provider value={testConfig}>
      <QueryClientProvider client={client}>
        <SettingsProvider defaultTheme="light">
          <AppThemeProvider config={testConfig}>
            <SnackbarProvider>
              <AuthProvider>
                <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
              </AuthProvider>
            </SnackbarProvider>
          </AppThemeProvider>
        </SettingsProvider>
      </QueryClientProvider>
    </ConfigContext.Provider>,
  );
}
