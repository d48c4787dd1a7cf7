import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, loadSettings, STORAGE_KEYS } from './settings.ts';
import { SettingsProvider, useSettings } from './settings-context.tsx';

beforeEach(() => localStorage.clear());

describe('layout settings', () => {
  it('start from the spec defaults (theme system, skin default, nav expanded and not semi-dark)', () => {
    expect(loadSettings('system')).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({
      theme: 'system',
      skin: 'default',
      verticalNavCollapsed: false,
      semiDark: false,
    });
  });

  it('are saved under the names the spec lists and read back', () => {
    const wrapper = ({ children }: { children: ReactNode }) => (
      <SettingsProvider defaultTheme="system">{children}</SettingsProvider>
    );
    const { result } = renderHook(() => useSettings(), { wrapper });
    act(() => {
      result.current.update('theme', 'dark');
      result.current.update('skin', 'bordered');
      result.current.update('verticalNavCollapsed', true);
      result.current.update('contentWidth', 'fluid');
      result.current.update('navType', 'horizontal');
      result.current.update('footerType', 'hidden');
    });
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(localStorage.getItem('skin')).toBe('bordered');
    expect(localStorage.getItem(STORAGE_KEYS.verticalNavCollapsed)).toBe('true');
    expect(localStorage.getItem(STORAGE_KEYS.contentWidth)).toBe('fluid');
    expect(result.current.mode).toBe('dark');
    expect(localStorage.getItem('color-scheme')).toBe('dark');
    expect(loadSettings('system')).toMatchObject({
      theme: 'dark',
      skin: 'bordered',
      verticalNavCollapsed: true,
      contentWidth: 'fluid',
      navType: 'horizontal',
      footerType: 'hidden',
    });
  });

  it('ignore stored values that are not one of the choices', () => {
    localStorage.setItem('theme', 'purple');
    localStorage.setItem(STORAGE_KEYS.navbarType, 'floating');
    localStorage.setItem(STORAGE_KEYS.semiDark, 'yes');
    expect(loadSettings('light')).toMatchObject({ theme: 'light', navbarType: 'sticky', semiDark: false });
  });
});
