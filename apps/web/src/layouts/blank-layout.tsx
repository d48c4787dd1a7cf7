import { Box, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../app/config-context.tsx';
import { LanguageSwitcher } from '../components/language-switcher.tsx';
import { Logo } from '../components/logo.tsx';
import { ThemeSwitcher } from '../components/theme-switcher.tsx';

/**
 * Sign-in and error pages: a brand panel beside the form on wide screens, one column on phones. A `wide` page (the
 * public chat and feedback pages, which a company's customers see) gets the whole width instead, with neither the
 * product's pitch nor its logo.
 */
export function BlankLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  const config = useConfig();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', bgcolor: 'background.default' }}>
      {!wide && (
        <Box
          component="aside"
          aria-hidden
          sx={{
            display: { xs: 'none', md: 'flex' },
            flex: '1 1 55%',
            flexDirection: 'column',
            justifyContent: 'flex-end',
            p: 12,
            color: '#fff',
            background: `linear-gradient(135deg, ${config.theme.primaryColorDark} 0%, #7a2e05 100%)`,
          }}
        >
          <Typography variant="h4" component="p" sx={{ maxWidth: 460, fontWeight: 700 }}>
            {t('shell.brandHeadline')}
          </Typography>
          <Typography sx={{ mt: 3, maxWidth: 460, opacity: 0.9 }}>{t('shell.brandText')}</Typography>
        </Box>
      )}
      <Box component="main" sx={{ flex: '1 1 45%', display: 'flex', flexDirection: 'column', minWidth: 0 }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', p: 4 }}>
          {/* A wide page is the company's to its customers (public chat, feedback): it shows the company instead. */}
          {wide ? <Box /> : <Logo />}
          <Stack direction="row" spacing={1}>
            <ThemeSwitcher />
            <LanguageSwitcher />
          </Stack>
        </Stack>
        <Box
          sx={{
            flex: 1,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            p: { xs: 4, sm: 8 },
          }}
        >
          <Box sx={{ width: '100%', maxWidth: wide ? 960 : 440 }}>{children}</Box>
        </Box>
      </Box>
    </Box>
  );
}

export default BlankLayout;
