import { IconButton } from '@mui/material';
import { IconLanguage } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The menu (and MUI's popover machinery) is fetched on first open, not with the sign-in page.
const LanguageMenu = lazy(() => import('./language-menu.tsx'));

/** The language switcher: each language by its own name (no flags). */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <IconButton
        aria-label={t('shell.language')}
        title={t('shell.language')}
        aria-haspopup="menu"
        onClick={(e) => {
          setLoaded(true);
          setAnchor(e.currentTarget);
        }}
        data-testid="language-switcher"
      >
        <IconLanguage size={22} stroke={1.6} />
      </IconButton>
      {loaded && (
        <Suspense fallback={null}>
          <LanguageMenu anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
