import { IconButton } from '@mui/material';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../settings/settings-context.tsx';

const ThemeMenu = lazy(() => import('./theme-menu.tsx'));
const ICONS = { light: IconSun, dark: IconMoon, system: IconDeviceDesktop };

/** The theme switcher: light, dark, or following the operating system. */
export function ThemeSwitcher() {
  const { t } = useTranslation();
  const { settings } = useSettings();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [loaded, setLoaded] = useState(false);
  const Current = ICONS[settings.theme];
  return (
    <>
      <IconButton
        aria-label={t('shell.theme.label')}
        title={t('shell.theme.label')}
        aria-haspopup="menu"
        onClick={(e) => {
          setLoaded(true);
          setAnchor(e.currentTarget);
        }}
      >
        <Current size={22} stroke={1.6} />
      </IconButton>
      {loaded && (
        <Suspense fallback={null}>
          <ThemeMenu anchor={anchor} onClose={() => setAnchor(null)} icons={ICONS} />
        </Suspense>
      )}
    </>
  );
}
