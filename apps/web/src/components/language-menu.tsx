import { ListItemText, Menu, MenuItem } from '@mui/material';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { bootEndpoints } from '../api/boot-endpoints.ts';
import { call } from '../api/http.ts';
import { useAuth } from '../auth/auth-context.tsx';
import { changeLanguage } from '../i18n/i18n.ts';

/** The list of languages; a signed-in user's choice is saved on the server. */
export default function LanguageMenu({ anchor, onClose }: { anchor: HTMLElement | null; onClose(): void }) {
  const { i18n } = useTranslation();
  const auth = useAuth();
  const choose = async (lang: Language) => {
    onClose();
    await changeLanguage(lang);
    if (auth.state === 'signedIn') {
      const me = await call(bootEndpoints.updateMe, { body: { language: lang } }).catch(() => null);
      if (me) auth.signIn(me);
    }
  };
  return (
    <Menu anchorEl={anchor} open={anchor !== null} onClose={onClose}>
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
  );
}
