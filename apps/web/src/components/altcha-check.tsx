import { Alert, Box, Skeleton } from '@mui/material';
// The `<altcha-widget>` element's attributes for React's JSX (types only; the widget itself is imported below).
import type {} from 'altcha/types/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bootEndpoints } from '../api/boot-endpoints.ts';

/** The widget's own texts for our languages (its English is built in); imported with the widget, on this page only. */
const WIDGET_LANGUAGES: Record<string, { code: string; load?: () => Promise<unknown> }> = {
  ar: { code: 'ar', load: () => import('altcha/i18n/ar') },
  de: { code: 'de', load: () => import('altcha/i18n/de') },
  en: { code: 'en' },
  fr: { code: 'fr-fr', load: () => import('altcha/i18n/fr-fr') },
  it: { code: 'it', load: () => import('altcha/i18n/it') },
  pl: { code: 'pl', load: () => import('altcha/i18n/pl') },
  pt: { code: 'pt-pt', load: () => import('altcha/i18n/pt-pt') },
  ru: { code: 'ru', load: () => import('altcha/i18n/ru') },
  uk: { code: 'uk', load: () => import('altcha/i18n/uk') },
};

export const ALTCHA_CHALLENGE_URL = `/api/v1${bootEndpoints.altchaChallenge.path}`;

const WIDGET_CONFIGURATION = JSON.stringify({ hideLogo: true });

/**
 * The self-hosted ALTCHA proof of work (the `<altcha-widget>` web component): solves the server's challenge in the
 * browser and hands on the payload once verified (null again when it expires or fails).
 */
export function AltchaCheck({ onChange }: { onChange(payload: string | null): void }) {
  const { t, i18n } = useTranslation();
  const language = WIDGET_LANGUAGES[i18n.language] ?? WIDGET_LANGUAGES.en!;
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    let current = true;
    Promise.all([import('altcha'), language.load?.()])
      .then(() => current && setReady(true))
      .catch(() => current && setFailed(true));
    return () => {
      current = false;
    };
  }, [language]);

  // Listens from the moment the element is in the page (a ref callback runs at commit; an effect could run after a
  // state change was already announced).
  const listen = useCallback((el: HTMLElement | null) => {
    if (!el) return;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail;
      changed.current(detail?.state === 'verified' && detail.payload ? detail.payload : null);
    };
    el.addEventListener('statechange', listener);
    return () => el.removeEventListener('statechange', listener);
  }, []);

  if (failed) return <Alert severity="error">{t('publicChat.botCheckFailedToLoad')}</Alert>;
  if (!ready) return <Skeleton variant="rounded" height={72} />;
  return (
    <Box
      sx={{
        '& altcha-widget': { display: 'block' },
        '--altcha-max-width': '100%',
        '--altcha-border-radius': (theme) => `${theme.shape.borderRadius}px`,
        '--altcha-color-base': (theme) => theme.palette.background.paper,
        '--altcha-color-base-content': (theme) => theme.palette.text.primary,
        '--altcha-border-color': (theme) => theme.palette.divider,
        '--altcha-color-primary': (theme) => theme.palette.primary.main,
        '--altcha-color-primary-content': (theme) => theme.palette.primary.contrastText,
        '--altcha-color-error': (theme) => theme.palette.error.main,
        '--altcha-color-success': (theme) => theme.palette.success.main,
      }}
    >
      <altcha-widget
        ref={listen}
        challenge={ALTCHA_CHALLENGE_URL}
        language={language.code}
        // Its logo is a link hidden from screen readers yet focusable (axe: aria-hidden-focus); the footer names it.
        configuration={WIDGET_CONFIGURATION}
      />
    </Box>
  );
}
