import { createTheme, type Theme, ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';

/**
 * The company's colour on its public chat and feedback pages: buttons, links and focus in it instead of the
 * product's (the server accepts only colours that white text on them, and they on white, can be read on). Dark mode
 * keeps the product's colours: a colour dark enough for white text would be too dark as text on a dark page.
 */
export function CompanyColors({ color, children }: { color: string | null; children: ReactNode }) {
  if (!color) return children;
  const withColor = (outer: Theme) =>
    outer.palette.mode === 'dark'
      ? outer
      : createTheme(outer, {
          palette: {
            primary: outer.palette.augmentColor({ color: { main: color, contrastText: '#ffffff' } }),
          },
        });
  return <ThemeProvider theme={withColor}>{children}</ThemeProvider>;
}
