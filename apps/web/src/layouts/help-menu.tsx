import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { IconHelp, IconRoute } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMayTakeTour, useUpdateTour } from '../api/tour.ts';
import { useTourControls } from '../components/guided-tour/tour-context.tsx';

/** The navbar's help menu: the guided tour, opened again where the user left it (also after skipping it). */
export function HelpMenu() {
  const { t } = useTranslation();
  const mayTakeTour = useMayTakeTour();
  const controls = useTourControls();
  const update = useUpdateTour();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!mayTakeTour) return null;
  return (
    <>
      <IconButton
        aria-label={t('tour.helpMenu')}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="help-menu"
      >
        <IconHelp size={22} />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            update.mutate({ state: 'active' });
            controls.reopen();
          }}
        >
          <ListItemIcon>
            <IconRoute size={20} />
          </ListItemIcon>
          <ListItemText>{t('tour.restart')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
