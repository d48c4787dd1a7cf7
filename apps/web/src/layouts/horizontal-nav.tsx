import { Box, Button, Stack } from '@mui/material';
import { type Area, matchPath } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAuth } from '../auth/auth-context.tsx';
import { ManifestIcon } from '../components/icons.tsx';
import { ShellLogo } from '../components/shell-logo.tsx';
import { menuFor } from './menu.ts';

/**
 * The horizontal navigation bar under the navbar, for users who chose it on wide screens. The logo sits in the navbar
 * above it, or `withLogo` at its start when the navbar is hidden.
 */
export function HorizontalNav({
  area,
  position,
  withLogo,
}: {
  area: Area;
  position: 'sticky' | 'static';
  withLogo: boolean;
}) {
  const { t } = useTranslation();
  const { ability } = useAuth();
  const location = useLocation();
  const items = menuFor(area, ability).flatMap((g) => g.items);
  return (
    <Box
      component="nav"
      aria-label={t('shell.navigation')}
      data-testid="horizontal-nav"
      sx={{
        position,
        top: 64,
        zIndex: 1090,
        bgcolor: 'background.paper',
        borderBottom: 1,
        borderColor: 'divider',
        px: 6,
      }}
    >
      <Stack direction="row" spacing={2} sx={{ py: 2, overflowX: 'auto', alignItems: 'center' }}>
        {withLogo && (
          <Box sx={{ flexShrink: 0, pr: 4 }}>
            <ShellLogo />
          </Box>
        )}
        {items.map((item) => {
          const active = matchPath(item.pattern, location.pathname) !== null;
          return (
            <Button
              key={item.id}
              component={Link}
              to={item.path}
              variant={active ? 'contained' : 'text'}
              color={active ? 'primary' : 'inherit'}
              startIcon={<ManifestIcon name={item.icon} size={20} />}
              aria-current={active ? 'page' : undefined}
            >
              {t(item.label)}
            </Button>
          );
        })}
      </Stack>
    </Box>
  );
}
