import { CacheProvider } from '@emotion/react';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { isRtl, type Language, type PublicConfig } from '@werkwissen/shared';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../settings/settings-context.tsx';
import { createAppTheme } from './create-app-theme.ts';
import { muiLocale } from './mui-locale.ts';
import { styleCache } from './style-cache.ts';

/**
 * Theme from the configuration and settings, with MUI's texts in the interface language; Arabic switches MUI and the
 * style cache to right-to-left.
 */
export function AppThemeProvider({ config, children }: { config: PublicConfig; children: ReactNode }) {
  const { settings, mode } = useSettings();
  const { i18n } = useTranslation();
  const direction = isRtl(i18n.language as Language) ? 'rtl' : 'ltr';
  const theme = useMemo(
    () =>
      createAppTheme({
        config: config.theme,
        mode,
        direction,
        skin: settings.skin,
        locale: muiLocale(i18n.language),
      }),
    [config.theme, mode, direction, settings.skin, i18n.language],
  );
  return (
    <CacheProvider value={styleCache(direction)}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </CacheProvider>
  );
}
