import {
  AppBar,
  Box,
  Container,
  IconButton,
  Link as MuiLink,
  Stack,
  Toolbar,
  Typography,
} from '@mui/material';
import { IconMenu2 } from '@tabler/icons-react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type Area, areaOfPath } from '@werkwissen/shared';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useConfig } from '../app/config-context.tsx';
import { useAuth } from '../auth/auth-context.tsx';
import { TourProvider } from '../components/guided-tour/tour-context.tsx';
import { TourGuide, TourNavbarEntry } from '../components/guided-tour/tour-guide.tsx';
import { LanguageSwitcher } from '../components/language-switcher.tsx';
import { ScrollToTop } from '../components/scroll-to-top.tsx';
import { ShellLogo } from '../components/shell-logo.tsx';
import { MAIN_CONTENT, SkipLink } from '../components/skip-link.tsx';
import { ThemeSwitcher } from '../components/theme-switcher.tsx';
import { useSettings } from '../settings/settings-context.tsx';
import { Customizer } from './customizer.tsx';
import { HelpMenu } from './help-menu.tsx';
import { HorizontalNav } from './horizontal-nav.tsx';
import { ImpersonationBanner } from './impersonation-banner.tsx';
import { RenewalBanner } from './renewal-banner.tsx';
import { UserMenu } from './user-menu.tsx';
import { VerticalNav } from './vertical-nav.tsx';

// Server state is only read on signed-in pages: the sign-in screens do not download the query cache.
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/**
 * Signed-in pages: navigation (vertical, or horizontal by setting), navbar, content and footer. The area's navigation
 * follows the address unless `area` is given (the not-found page: the address belongs to no area).
 */
export function DefaultLayout({ children, area: givenArea }: { children: ReactNode; area?: Area }) {
  const { t } = useTranslation();
  const config = useConfig();
  const auth = useAuth();
  const location = useLocation();
  const { settings, isOverlayNav } = useSettings();
  const [navOpen, setNavOpen] = useState(false);
  const area: Area = givenArea ?? areaOfPath(location.pathname);
  const horizontal = settings.navType === 'horizontal' && !isOverlayNav;
  const barPosition = (type: string) => (type === 'sticky' ? 'sticky' : 'static');

  return (
    <QueryClientProvider client={queryClient}>
      <TourProvider>
        <SkipLink />
        <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
          {!horizontal && (
            <VerticalNav
              area={area}
              collapsed={settings.verticalNavCollapsed}
              semiDark={settings.semiDark}
              overlay={isOverlayNav}
              open={navOpen}
              onClose={() => setNavOpen(false)}
            />
          )}
          <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
            <ImpersonationBanner />
            <RenewalBanner />
            {settings.navbarType !== 'hidden' && (
              <AppBar
                position={barPosition(settings.navbarType)}
                color="inherit"
                elevation={0}
                sx={{
                  borderBottom: 1,
                  borderColor: 'divider',
                  bgcolor: settings.navbarBlur ? 'rgba(var(--navbar-rgb), 0.85)' : 'background.paper',
                  backdropFilter: settings.navbarBlur ? 'blur(8px)' : undefined,
                  '--navbar-rgb': (theme) => (theme.palette.mode === 'dark' ? '47, 51, 73' : '255, 255, 255'),
                }}
              >
                <Toolbar
                  sx={(theme) => ({
                    gap: 2,
                    // A phone's header holds six buttons beside the company's name: closer together, smaller padding.
                    [theme.breakpoints.down('sm')]: { gap: 0.5, '& .MuiIconButton-root': { p: 1.5 } },
                  })}
                >
                  {isOverlayNav && !horizontal && (
                    <IconButton
                      aria-label={t('shell.openNavigation')}
                      edge="start"
                      onClick={() => setNavOpen(true)}
                    >
                      <IconMenu2 size={22} />
                    </IconButton>
                  )}
                  {horizontal && <ShellLogo />}
                  {/* The name's own direction: an Arabic layout cuts a Latin name at its end ("left" flips). On a
                      phone the icons leave it little room: it wraps to up to three smaller lines instead of being cut. */}
                  <Typography
                    variant="h6"
                    component="p"
                    dir="auto"
                    data-testid="shell-company-name"
                    title={auth.session?.userData.companyName ?? config.appTitle}
                    noWrap
                    sx={(theme) => ({
                      flex: 1,
                      minWidth: 0,
                      textAlign: 'left',
                      [theme.breakpoints.down('sm')]: {
                        fontSize: '0.875rem',
                        lineHeight: 1.2,
                        whiteSpace: 'normal',
                        display: '-webkit-box',
                        WebkitLineClamp: '3',
                        WebkitBoxOrient: 'vertical',
                      },
                    })}
                  >
                    {auth.session?.userData.companyName ?? config.appTitle}
                  </Typography>
                  <LanguageSwitcher />
                  <ThemeSwitcher />
                  <Customizer />
                  <TourNavbarEntry />
                  <HelpMenu />
                  <UserMenu area={area} />
                </Toolbar>
              </AppBar>
            )}
            {horizontal && settings.horizontalNavType !== 'hidden' && (
              <HorizontalNav
                area={area}
                position={barPosition(settings.horizontalNavType)}
                withLogo={settings.navbarType === 'hidden'}
              />
            )}
            <Container
              component="main"
              id={MAIN_CONTENT}
              tabIndex={-1}
              maxWidth={settings.contentWidth === 'boxed' ? 'lg' : false}
              sx={{ flex: 1, py: 6, px: { xs: 4, sm: 6 } }}
            >
              {children}
            </Container>
            {settings.footerType !== 'hidden' && (
              <Box
                component="footer"
                sx={{
                  position: settings.footerType === 'sticky' ? 'sticky' : 'static',
                  bottom: 0,
                  px: 6,
                  py: 3,
                  bgcolor: 'background.paper',
                  borderTop: 1,
                  borderColor: 'divider',
                }}
              >
                <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 2 }}>
                  <Typography variant="body2" color="text.secondary">
                    © {new Date().getFullYear()} {config.appTitle}
                  </Typography>
                  {config.privacyUrl && (
                    <MuiLink href={config.privacyUrl} variant="body2" target="_blank" rel="noopener">
                      {t('shell.privacy')}
                    </MuiLink>
                  )}
                </Stack>
              </Box>
            )}
          </Box>
          <ScrollToTop />
        </Box>
        <TourGuide />
      </TourProvider>
    </QueryClientProvider>
  );
}

export default DefaultLayout;
