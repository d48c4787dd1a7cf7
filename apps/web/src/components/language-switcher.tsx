import { IconButton, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import { IconLanguage } from '@tabler/icons-react';
import { authContracts, LANGUAGE_NAMES, LANGUAGES, type Language } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../api/http.ts';
import { useAuth } from '../auth/auth-context.tsx';
import { changeLanguage } from '../i18n/i18n.ts';

/** Lists each language by its own name (no flags); a signed-in user's choice is saved on the server. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = async (lang: Language) => {
    setAnchor(null);
    await changeLanguage(lang);
    if (auth.state === 'signedIn') {
      const me = await call(authContracts.updateMe, { body: { language: lang } }).catch(() => null);
      if (me) auth.signIn(me);
    }
  };
  return (
    <>
      <Tooltip title={t('shell.language')}>
        <IconButton
          aria-label={t('shell.language')}
          aria-haspopup="menu"
          onClick={(e) => setAnchor(e.currentTarget)}
          data-testid="language-switcher"
        >
          <IconLanguage size={22} stroke={1.6} />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((lang) => (
          <MenuItem
            key={lang}
            selected={i18n.language === lang}
            onClick={() => void choose(lang)}
            lang={lang}
            data-testid={`language-${lang}`}
          >
            <ListItemText>{LANGUAGE_NAMES[lang]}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
