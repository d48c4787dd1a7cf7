import { render, screen } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { i18next, initI18n } from './i18n.ts';

function ForgotLink() {
  const { t } = useTranslation();
  return <p>{t('pages.login.forgot')}</p>;
}

describe('the English fallback', () => {
  it('is downloaded only once a key is missing, and then shown in the key’s place', async () => {
    await initI18n('de');
    render(<ForgotLink />);
    expect(screen.getByText('Passwort vergessen?')).toBeTruthy();
    // Every German text is there: nothing asked for English (had anything, its bundle would be in by the time the
    // same module has loaded here).
    await import('virtual:locale/en-first');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(i18next.hasResourceBundle('en', 'translation')).toBe(false);

    // A German text goes missing (as a key added without its translation would be).
    const german = i18next.getResourceBundle('de', 'translation') as {
      pages: { login: Record<string, string> };
    };
    delete german.pages.login.forgot;
    await i18next.changeLanguage('de');
    expect(await screen.findByText('Forgot password?')).toBeTruthy();
    expect(i18next.hasResourceBundle('en', 'translation')).toBe(true);
  });
});
