import { useMediaQuery } from '@mui/material';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { type LayoutSettings, loadSettings, saveSetting, type ThemeSetting } from './settings.ts';

interface SettingsValue {
  settings: LayoutSettings;
  /** The mode actually shown: `system` follows the operating system, live. */
  mode: 'light' | 'dark';
  update<K extends keyof LayoutSettings>(key: K, value: LayoutSettings[K]): void;
  /** Below 1279 px the vertical overlay navigation is used whatever the choice; the choice itself is kept. */
  isOverlayNav: boolean;
}

const SettingsContext = createContext<SettingsValue | null>(null);

export function SettingsProvider({
  defaultTheme,
  children,
}: {
  defaultTheme: ThemeSetting;
  children: ReactNode;
}) {
  const [settings, setSettings] = useState(() => loadSettings(defaultTheme));
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const isOverlayNav = useMediaQuery('(max-width: 1279px)', { noSsr: true });
  const mode = settings.theme === 'system' ? (prefersDark ? 'dark' : 'light') : settings.theme;

  useEffect(() => {
    localStorage.setItem('color-scheme', mode);
    document.documentElement.style.colorScheme = mode;
  }, [mode]);

  const update = useCallback(<K extends keyof LayoutSettings>(key: K, value: LayoutSettings[K]) => {
    saveSetting(key, value);
    setSettings((s) => ({ ...s, [key]: value }));
  }, []);

  const value = useMemo(
    () => ({ settings, mode, update, isOverlayNav }),
    [settings, mode, update, isOverlayNav],
  );
  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}

export function useSettings(): SettingsValue {
  const value = useContext(SettingsContext);
  if (!value) throw new Error('useSettings outside SettingsProvider');
  return value;
}
