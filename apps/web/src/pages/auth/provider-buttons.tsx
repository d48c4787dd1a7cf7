import { Button, Divider, Stack } from '@mui/material';
import { type OfferedProvider, OIDC_AREAS, type OidcArea } from '@werkwissen/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchOfferedProviders, providerStartUrl } from '../../api/sign-in-flow.ts';
import { GoogleButton } from './google-button.tsx';

/** Google's four-colour "G", as its branding guidelines ask for on a sign-in button. */
function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
      <path
        fill="#EA4335"
        d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.2 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.7c4.3-4 6.9-9.9 6.9-17.1z"
      />
      <path
        fill="#FBBC05"
        d="M10.6 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.9-6.1z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.4-5.7c-2.1 1.4-4.8 2.3-8.5 2.3-6.2 0-11.5-4.1-13.4-9.8l-7.9 6.1C6.6 42.6 14.6 48 24 48z"
      />
    </svg>
  );
}

/**
 * "Sign in with ..." for each provider the area offers; a button is a plain link to the server's start of the flow
 * (it redirects to the provider), carrying the page's `?to=` return path, which the server checks again. Google's
 * is Google's own button, drawn by its script (`GoogleButton`), with that link until it is drawn or if it cannot be.
 */
export function ProviderButtons({ area, to }: { area: string; to: string | null }) {
  const { t } = useTranslation();
  const oidcArea = (OIDC_AREAS as readonly string[]).includes(area) ? (area as OidcArea) : null;
  const [offered, setOffered] = useState<OfferedProvider[]>([]);
  useEffect(() => {
    if (!oidcArea) return;
    let current = true;
    // Without the list the page still signs in with the password: a failure shows no buttons.
    fetchOfferedProviders(oidcArea).then(
      (items) => current && setOffered(items),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [oidcArea]);
  if (!oidcArea || offered.length === 0) return null;
  return (
    <Stack spacing={3} data-testid="sign-in-providers">
      <Divider>{t('auth.oidc.or')}</Divider>
      {offered.map((provider) => {
        const link = (
          <Button
            key={provider.id}
            component="a"
            href={providerStartUrl(provider.id, oidcArea, to)}
            variant="outlined"
            size="large"
            startIcon={provider.kind === 'google' ? <GoogleMark /> : undefined}
          >
            {t('auth.oidc.signInWith', { name: provider.name })}
          </Button>
        );
        return provider.kind === 'google' ? (
          <GoogleButton key={provider.id} provider={provider} area={oidcArea} to={to} fallback={link} />
        ) : (
          link
        );
      })}
    </Stack>
  );
}
