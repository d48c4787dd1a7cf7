import { Alert, Box, Skeleton } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Provider = 'recaptcha' | 'turnstile';

interface WidgetApi {
  render(element: HTMLElement, options: Record<string, unknown>): unknown;
}

/** Where each provider's script lives (explicit rendering), and the global it defines. */
const SCRIPTS: Record<Provider, { url: (language: string) => string; global: 'grecaptcha' | 'turnstile' }> = {
  recaptcha: {
    url: (language) =>
      `https://www.google.com/recaptcha/api.js?render=explicit&hl=${encodeURIComponent(language)}`,
    global: 'grecaptcha',
  },
  turnstile: {
    url: () => 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
    global: 'turnstile',
  },
};

const loading = new Map<Provider, Promise<WidgetApi>>();

/** Loads a provider's script once, on the first page that shows its widget, and waits until its API is ready. */
function loadScript(provider: Provider, language: string): Promise<WidgetApi> {
  const pending =
    loading.get(provider) ??
    new Promise<WidgetApi>((resolve, reject) => {
      const { url, global } = SCRIPTS[provider];
      const script = document.createElement('script');
      script.src = url(language);
      script.async = true;
      script.onerror = () => {
        loading.delete(provider);
        reject(new Error(`${provider} script failed to load`));
      };
      script.onload = () => {
        const api = (
          window as unknown as Record<string, (WidgetApi & { ready?(cb: () => void): void }) | undefined>
        )[global];
        if (!api) return reject(new Error(`${provider} script defined no API`));
        // reCAPTCHA's render is usable only after its own ready callback.
        if (api.ready) api.ready(() => resolve(api));
        else resolve(api);
      };
      document.head.appendChild(script);
    });
  loading.set(provider, pending);
  return pending;
}

/**
 * reCAPTCHA (v2 checkbox) or Cloudflare Turnstile, as the operator configured: the provider's script is loaded only
 * when the widget is shown, and its token handed on once solved (null again when it expires).
 */
export function ProviderCaptcha({
  provider,
  siteKey,
  onChange,
}: {
  provider: Provider;
  siteKey: string;
  onChange(token: string | null): void;
}) {
  const { t, i18n } = useTranslation();
  const holder = useRef<HTMLDivElement | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    let current = true;
    loadScript(provider, i18n.language)
      .then((api) => {
        if (!current || !holder.current) return;
        api.render(holder.current, {
          sitekey: siteKey,
          ...(provider === 'turnstile' ? { language: i18n.language } : {}),
          callback: (token: string) => changed.current(token),
          'expired-callback': () => changed.current(null),
          'error-callback': () => changed.current(null),
        });
        setState('ready');
      })
      .catch(() => current && setState('failed'));
    return () => {
      current = false;
    };
  }, [provider, siteKey, i18n.language]);

  if (state === 'failed') return <Alert severity="error">{t('publicChat.botCheckFailedToLoad')}</Alert>;
  return (
    <Box data-testid={`${provider}-widget`}>
      {state === 'loading' && <Skeleton variant="rounded" height={78} />}
      <div ref={holder} />
    </Box>
  );
}
