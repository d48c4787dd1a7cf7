import {
  Avatar,
  Divider,
  IconButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  Typography,
} from '@mui/material';
import { IconLogout, IconSettings, IconUser } from '@tabler/icons-react';
import type { Area } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAuth } from '../auth/auth-context.tsx';

export function settingsPath(area: Area): string {
  return area === 'user' ? '/account-settings/account' : `/${area}/account-settings/account`;
}

/** The avatar menu: account settings and sign out. */
export function UserMenu({ area }: { area: Area }) {
  const { t } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const user = auth.session?.userData;
  if (!user) return null;
  // Once the session is gone, the guard sends the page to its area's login with `?to=` the return path (spec 4).
  const signOut = async () => {
    setAnchor(null);
    await auth.signOut();
  };
  return (
    <>
      <IconButton
        aria-label={t('shell.userMenu')}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="user-menu"
      >
        <Avatar
          sx={{ width: 36, height: 36, bgcolor: 'primary.main', color: 'primary.contrastText', fontSize: 15 }}
        >
          <IconUser size={20} aria-hidden />
        </Avatar>
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem disabled sx={{ opacity: '1 !important' }}>
          <ListItemText
            primary={user.fullName}
            secondary={<Typography variant="caption">{t(`roles.${auth.session?.userRole}`)}</Typography>}
          />
        </MenuItem>
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            navigate(settingsPath(area));
          }}
        >
          <ListItemIcon>
            <IconSettings size={20} />
          </ListItemIcon>
          <ListItemText>{t('nav.accountSettings')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => void signOut()} data-testid="sign-out">
          <ListItemIcon>
            <IconLogout size={20} />
          </ListItemIcon>
          <ListItemText>{t('shell.signOut')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
