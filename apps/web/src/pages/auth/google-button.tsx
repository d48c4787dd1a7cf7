import { Box } from '@mui/material';
import { GOOGLE_BUTTON_SCRIPT, type OfferedProvider, type OidcArea } from '@werkwissen/shared';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { handOverCredential, openGoogleButton } from '../../api/sign-in-flow.ts';

/** The part of Google's script (`google.accounts.id`, Sign in with Google) the button uses. */
interface GoogleIdentity {
  initialize(config: {
    client_id: string;
    nonce: string;
    callback: (response: { credential: string }) => void;
    ux_mode: 'popup';
    context: 'signin';
  }): void;
  renderButton(
    parent: HTMLElement,
    options: {
      type: 'standard';
      theme: 'outline';
      size: 'large';
      text: 'signin_with';
      locale: string;
      width: number;
    },
  ): void;
}

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleIdentity } };
  }
}

let loading: Promise<GoogleIdentity> | null = null;

/** Google's script, loaded once and only by a page that shows Google's button. */
function googleIdentity(): Promise<GoogleIdentity> {
  const loaded = window.google?.accounts?.id;
  if (loaded) return Promise.resolve(loaded);
  loading ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GOOGLE_BUTTON_SCRIPT;
    script.async = true;
    script.onload = () => {
      const id = window.google?.accounts?.id;
      if (id) resolve(id);
      else reject(new Error('Google’s script defines no google.accounts.id'));
    };
    script.onerror = () => {
      // Blocked or offline: a later page may try again.
      loading = null;
      script.remove();
      reject(new Error('Google’s script did not load'));
    };
    document.head.append(script);
  });
  return loading;
}

/**
 * Google's own "Sign in with Google" button, rendered by Google's script with the flow's nonce. The ID token it hands
 * back goes to the server, which checks it like a callback's and answers where to land (signed in, the second
 * factor, or the page with the error). Until the script has drawn its button, and whenever it cannot (blocked,
 * offline), `fallback` is shown: our own button to the redirect flow.
 */
export function GoogleButton({
  provider,
  area,
  to,
  fallback,
}: {
  provider: OfferedProvider;
  area: OidcArea;
  to: string | null;
  fallback: ReactNode;
}) {
  const { i18n } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);
  const language = i18n.language;
  useEffect(() => {
    let current = true;
    Promise.all([openGoogleButton(provider.id, area, to), googleIdentity()]).then(
      ([{ clientId, nonce }, google]) => {
        const parent = host.current;
        if (!current || !parent) return;
        google.initialize({
          client_id: clientId,
          nonce,
          ux_mode: 'popup',
          context: 'signin',
          callback: ({ credential }) => {
            handOverCredential(credential).then(
              (location) => window.location.assign(location),
              () => window.location.assign(`${window.location.pathname}?oidcError=OIDC_SIGN_IN_FAILED`),
            );
          },
        });
        google.renderButton(parent, {
          type: 'standard',
          theme: 'outline',
          size: 'large',
          text: 'signin_with',
          locale: language,
          // Google draws between 200 and 400 px.
          width: Math.max(200, Math.min(400, parent.clientWidth)),
        });
        setDrawn(true);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [provider.id, area, to, language]);
  return (
    <>
      <Box ref={host} data-testid="google-button" sx={{ display: 'flex', justifyContent: 'center' }} />
      {!drawn && fallback}
    </>
  );
}
