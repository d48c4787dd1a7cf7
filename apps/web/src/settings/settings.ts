/**
 * Layout settings, kept on the device under the names spec section 3 lists (theme, skin, color-scheme, navbar blur,
 * the vertical-nav collapsed flag, content width) plus the navigation choices of section 2.
 */
export type ThemeSetting = 'light' | 'dark' | 'system';
export type Bar = 'sticky' | 'static' | 'hidden';

export interface LayoutSettings {
  theme: ThemeSetting;
  skin: 'default' | 'bordered';
  navbarBlur: boolean;
  verticalNavCollapsed: boolean;
  semiDark: boolean;
  contentWidth: 'fluid' | 'boxed';
  navType: 'vertical' | 'horizontal';
  navbarType: Bar;
  footerType: Bar;
  horizontalNavType: Bar;
}

export const DEFAULT_SETTINGS: LayoutSettings = {
  theme: 'system',
  skin: 'default',
  navbarBlur: true,
  verticalNavCollapsed: false,
  semiDark: false,
  contentWidth: 'boxed',
  navType: 'vertical',
  navbarType: 'sticky',
  footerType: 'static',
  horizontalNavType: 'sticky',
};

const CHOICES: { [K in keyof LayoutSettings]: readonly LayoutSettings[K][] } = {
  theme: ['light', 'dark', 'system'],
  skin: ['default', 'bordered'],
  navbarBlur: [true, false],
  verticalNavCollapsed: [true, false],
  semiDark: [true, false],
  contentWidth: ['fluid', 'boxed'],
  navType: ['vertical', 'horizontal'],
  navbarType: ['sticky', 'static', 'hidden'],
  footerType: ['sticky', 'static', 'hidden'],
  horizontalNavType: ['sticky', 'static', 'hidden'],
};

/** localStorage names (the spec spells some of them). */
export const STORAGE_KEYS: Record<keyof LayoutSettings, string> = {
  theme: 'theme',
  skin: 'skin',
  navbarBlur: 'navbar-blur',
  verticalNavCollapsed: 'vertical-nav-collapsed',
  semiDark: 'semi-dark',
  contentWidth: 'content-width',
  navType: 'nav-type',
  navbarType: 'navbar-type',
  footerType: 'footer-type',
  horizontalNavType: 'horizontal-nav-type',
};

export function loadSettings(defaultTheme: ThemeSetting): LayoutSettings {
  const settings = { ...DEFAULT_SETTINGS, theme: defaultTheme } as Record<string, unknown>;
  for (const key of Object.keys(CHOICES) as Array<keyof LayoutSettings>) {
    const raw = localStorage.getItem(STORAGE_KEYS[key]);
    if (raw === null) continue;
    const value = raw === 'true' ? true : raw === 'false' ? false : raw;
    if ((CHOICES[key] as readonly unknown[]).includes(value)) settings[key] = value;
  }
  return settings as unknown as LayoutSettings;
}

export function saveSetting<K extends keyof LayoutSettings>(key: K, value: LayoutSettings[K]): void {
  localStorage.setItem(STORAGE_KEYS[key], String(value));
}

export { CHOICES as SETTING_CHOICES };
