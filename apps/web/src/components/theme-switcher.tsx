import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ThemeSetting } from '../settings/settings.ts';
import { useSettings } from '../settings/settings-context.tsx';

const OPTIONS: Array<{ value: ThemeSetting; icon: typeof IconSun }> = [
  { value: 'light', icon: IconSun },
  { value: 'dark', icon: IconMoon },
  { value: 'system', icon: IconDeviceDesktop },
];

export function ThemeSwitcher() {
  const { t } = useTranslation();
  const { settings, update } = useSettings();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const Current = OPTIONS.find((o) => o.value === settings.theme)?.icon ?? IconDeviceDesktop;
  return (
    <>
      <Tooltip title={t('shell.theme.label')}>
        <IconButton
          aria-label={t('shell.theme.label')}
          aria-haspopup="menu"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <Current size={22} stroke={1.6} />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {OPTIONS.map(({ value, icon: Icon }) => (
          <MenuItem
            key={value}
            selected={settings.theme === value}
            onClick={() => {
              update('theme', value);
              setAnchor(null);
            }}
          >
            <ListItemIcon>
              <Icon size={20} stroke={1.6} />
            </ListItemIcon>
            <ListItemText>{t(`shell.theme.${value}`)}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
