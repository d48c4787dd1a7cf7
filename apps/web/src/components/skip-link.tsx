import { Link } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The id of the page's main content, which the skip link jumps to. */
export const MAIN_CONTENT = 'main-content';

/**
 * The first stop of the keyboard on every page of the app: hidden until focused, it jumps past the navigation to the
 * main content (WCAG 2.4.1).
 */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <Link
      href={`#${MAIN_CONTENT}`}
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(MAIN_CONTENT)?.focus();
      }}
      sx={{
        position: 'absolute',
        insetInlineStart: 16,
        top: 8,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        px: 3,
        py: 2,
        bgcolor: 'background.paper',
        borderRadius: 1,
        boxShadow: 3,
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      }}
    >
      {t('shell.skipToContent')}
    </Link>
  );
}
