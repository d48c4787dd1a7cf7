import { createTheme, type Theme } from '@mui/material/styles';
import type { PublicConfig } from '@werkwissen/shared';

declare module '@mui/material/styles' {
  interface BreakpointOverrides {
    /** Spec section 9's widest breakpoint. */
    xxl: true;
  }
}

export interface ThemeOptions {
  config: PublicConfig['theme'];
  mode: 'light' | 'dark';
  direction: 'ltr' | 'rtl';
  skin: 'default' | 'bordered';
  /** MUI's component texts in the interface language (`@mui/material/locale`); English without. */
  locale?: object;
}

/**
 * The product theme. The brand orange is too light for text on white (about 2.7:1), so in light mode the darker
 * primary colour is `primary.main` (text, links, buttons) and the brand colour stays for fills (`primary.light`).
 */
export function createAppTheme({ config, mode, direction, skin, locale = {} }: ThemeOptions): Theme {
  const light = mode === 'light';
  return createTheme(
    {
      direction,
      breakpoints: { values: { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920, xxl: 2560 } },
      palette: {
        mode,
        primary: light
          ? { main: config.primaryColorDark, light: config.primaryColor, contrastText: '#ffffff' }
          : { main: config.primaryColor, dark: config.primaryColorDark, contrastText: '#1c1b22' },
        background: light
          ? { default: '#f4f5fa', paper: config.surfaceLight }
          : { default: '#25293c', paper: config.surfaceDark },
        text: light
          ? { primary: '#2f2b3d', secondary: '#5d596c' }
          : { primary: '#e1def5', secondary: '#b6bee3' },
        divider: light ? 'rgba(47, 43, 61, 0.12)' : 'rgba(225, 222, 245, 0.14)',
      },
      shape: { borderRadius: 6 },
      spacing: 4,
      typography: {
        fontFamily:
          '"Public Sans", system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", Arial, sans-serif',
        h4: { fontWeight: 600 },
        h5: { fontWeight: 600 },
        h6: { fontWeight: 600 },
        button: { textTransform: 'none', fontWeight: 600 },
      },
      components: {
        MuiCard: {
          defaultProps: { elevation: skin === 'bordered' ? 0 : 2 },
          styleOverrides: {
            root: ({ theme }) => ({
              borderRadius: 8,
              ...(skin === 'bordered' ? { border: `1px solid ${theme.palette.divider}` } : {}),
            }),
          },
        },
        MuiButton: { defaultProps: { disableElevation: true } },
        MuiTextField: { defaultProps: { size: 'medium', fullWidth: true } },
        // Links are underlined so that they are told apart from text without relying on colour (WCAG 1.4.1).
        MuiLink: { defaultProps: { underline: 'always' } },
        MuiButtonBase: {
          styleOverrides: {
            root: {
              '&.Mui-focusVisible': { outline: '2px solid currentColor', outlineOffset: 2 },
            },
          },
        },
      },
    },
    locale,
  );
}
