import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLanguage } from './i18n.ts';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

const me = (language: string) => ({ userData: { language } });

describe('the language of the first paint', () => {
  it("is the server's saved choice when it differs from the copy stored on this device", () => {
    localStorage.setItem('language', 'ar');
    expect(startLanguage(me('de'), 'ar', 'en')).toBe('de');
  });

  it('is the stored choice while the server cannot be asked', () => {
    expect(startLanguage(undefined, 'ar', 'de')).toBe('ar');
  });

  it("falls back to this device's choice, then the browser's, then the installation's without a session", () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['pl-PL', 'en']);
    localStorage.setItem('language', 'fr');
    expect(startLanguage('refused', 'ar', 'de')).toBe('fr');
    localStorage.clear();
    expect(startLanguage('refused', 'ar', 'de')).toBe('pl');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ja']);
    expect(startLanguage(undefined, undefined, 'it')).toBe('it');
  });
});
