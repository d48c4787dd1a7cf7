import { ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import type { IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ThemeSetting } from '../settings/settings.ts';
import { useSettings } from '../settings/settings-context.tsx';

export default function ThemeMenu({
  anchor,
  onClose,
  icons,
}: {
  anchor: HTMLElement | null;
  onClose(): void;
  icons: Record<ThemeSetting, typeof IconSun>;
}) {
  const { t } = useTranslation();
  const { settings, update } = useSettings();
  return (
    <Menu anchorEl={anchor} open={anchor !== null} onClose={onClose}>
      {(Object.keys(icons) as ThemeSetting[]).map((value) => {
        const Icon = icons[value];
        return (
          <MenuItem
            key={value}
            selected={settings.theme === value}
            onClick={() => {
              update('theme', value);
              onClose();
            }}
          >
            <ListItemIcon>
              <Icon size={20} stroke={1.6} />
            </ListItemIcon>
            <ListItemText>{t(`shell.theme.${value}`)}</ListItemText>
          </MenuItem>
        );
      })}
    </Menu>
  );
}
