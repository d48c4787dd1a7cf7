import {
  Box,
  Drawer,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  useTheme,
} from '@mui/material';
import { type Area, matchPath } from '@werkwissen/shared';
import { type FocusEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAuth } from '../auth/auth-context.tsx';
import { ManifestIcon } from '../components/icons.tsx';
import { ShellLogo } from '../components/shell-logo.tsx';
import { menuFor } from './menu.ts';

export const NAV_WIDTH = 260;
export const NAV_COLLAPSED_WIDTH = 72;

interface Props {
  area: Area;
  collapsed: boolean;
  semiDark: boolean;
  overlay: boolean;
  open: boolean;
  onClose(): void;
}

/**
 * The vertical navigation: logo, grouped sections with captions, the active item filled with the primary colour.
 * Collapsed, it keeps a column of icons under the logo's mark and opens over the content while the pointer or the
 * keyboard focus is in it, as admin templates do; the page keeps its width.
 */
export function VerticalNav({ area, collapsed, semiDark, overlay, open, onClose }: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const { ability } = useAuth();
  const location = useLocation();
  const [peeking, setPeeking] = useState(false);
  const rail = collapsed && !overlay;
  const narrow = rail && !peeking;
  const width = narrow ? NAV_COLLAPSED_WIDTH : NAV_WIDTH;
  const dark = semiDark && theme.palette.mode === 'light';
  const groups = menuFor(area, ability);

  const content = (
    <Box
      component="nav"
      aria-label={t('shell.navigation')}
      data-testid="vertical-nav"
      sx={{
        width,
        height: '100%',
        bgcolor: dark ? '#2F3349' : 'background.paper',
        color: dark ? '#e1def5' : 'text.primary',
      }}
    >
      <Box
        sx={{
          height: 72,
          px: narrow ? 0 : 6,
          display: 'flex',
          alignItems: 'center',
          justifyContent: narrow ? 'center' : 'flex-start',
        }}
      >
        <ShellLogo compact={narrow} />
      </Box>
      {groups.map((group) => (
        <List
          key={group.section}
          dense
          subheader={
            narrow ? undefined : (
              <ListSubheader
                disableSticky
                sx={{
                  bgcolor: 'transparent',
                  color: 'inherit',
                  opacity: 0.7,
                  fontSize: 12,
                  textTransform: 'uppercase',
                  lineHeight: 2.5,
                }}
              >
                {t(`nav.sections.${group.section}`)}
              </ListSubheader>
            )
          }
          sx={{ px: 3 }}
        >
          {group.items.map((item) => {
            const active = matchPath(item.pattern, location.pathname) !== null;
            return (
              <ListItem key={item.id} disablePadding>
                <ListItemButton
                  component={Link}
                  to={item.path}
                  onClick={overlay ? onClose : undefined}
                  selected={active}
                  aria-current={active ? 'page' : undefined}
                  title={narrow ? t(item.label) : undefined}
                  sx={{
                    borderRadius: 1.5,
                    mb: 1,
                    width: '100%',
                    '&.Mui-selected, &.Mui-selected:hover': {
                      bgcolor: 'primary.main',
                      color: 'primary.contrastText',
                      '& .MuiListItemIcon-root': { color: 'inherit' },
                    },
                  }}
                >
                  <ListItemIcon sx={{ minWidth: narrow ? 0 : 36, color: 'inherit' }}>
                    <ManifestIcon name={item.icon} />
                  </ListItemIcon>
                  {!narrow && <ListItemText primary={t(item.label)} />}
                </ListItemButton>
              </ListItem>
            );
          })}
        </List>
      ))}
    </Box>
  );

  if (overlay) {
    return (
      <Drawer variant="temporary" open={open} onClose={onClose} ModalProps={{ keepMounted: true }}>
        {content}
      </Drawer>
    );
  }
  // The collapsed column keeps its width; only the (fixed) paper widens over the content.
  const peek = rail
    ? {
        onMouseEnter: () => setPeeking(true),
        onMouseLeave: () => setPeeking(false),
        onFocus: () => setPeeking(true),
        onBlur: (e: FocusEvent<HTMLElement>) => {
          if (!e.currentTarget.contains(e.relatedTarget)) setPeeking(false);
        },
      }
    : {};
  return (
    <Drawer
      variant="permanent"
      slotProps={{ paper: peek }}
      sx={{
        width: rail ? NAV_COLLAPSED_WIDTH : NAV_WIDTH,
        flexShrink: 0,
        '& .MuiDrawer-paper': {
          width,
          boxSizing: 'border-box',
          overflowX: 'hidden',
          transition: theme.transitions.create(['width', 'box-shadow'], {
            duration: theme.transitions.duration.shorter,
          }),
          boxShadow: rail && peeking ? theme.shadows[8] : 'none',
        },
      }}
    >
      {content}
    </Drawer>
  );
}
