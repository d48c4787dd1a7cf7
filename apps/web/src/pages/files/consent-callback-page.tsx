import { Alert, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CONSENT_DIVISION_KEY, type ConsentKind, useCompleteConsent } from '../../api/connectors.ts';
import { errorMessage } from '../../components/form.tsx';
import { PageHeader } from '../../components/page-header.tsx';

/** The texts of each kind's return: `connectors.<ns>.*` and the page's title. */
const TEXTS: Record<ConsentKind, { ns: string; title: string }> = {
  microsoft365: { ns: 'connectors.microsoft', title: 'pages.microsoftConsent.title' },
  googledrive: { ns: 'connectors.google', title: 'pages.googleConsent.title' },
};

/**
 * `/connectors/microsoft365/callback` and `/connectors/googledrive/callback`: where the vendor's consent page sends the
 * browser back. With a code, the connection is ended on the server once (the code is good for one use) and the
 * division's page opens, its first sync running; when the vendor gave no access, or the server refused, the page says
 * why and leads back.
 */
export function ConsentCallbackPage({ kind }: { kind: ConsentKind }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [failure, setFailure] = useState<string | null>(null);
  const sent = useRef(false);
  const divisionId = sessionStorage.getItem(CONSENT_DIVISION_KEY);
  const complete = useCompleteConsent(kind, {
    onSuccess: (connector) => {
      sessionStorage.removeItem(CONSENT_DIVISION_KEY);
      navigate(`/divisions/${connector.divisionId}`, { replace: true });
    },
    claimError: (error) => {
      setFailure(errorMessage(error, t));
      return true;
    },
  });
  const code = params.get('code');
  const state = params.get('state');
  const declined = !code || !state;

  useEffect(() => {
    if (declined || sent.current) return;
    sent.current = true;
    complete.mutate({ code, state });
  }, [declined, code, state, complete]);

  const { ns, title } = TEXTS[kind];
  const message = declined ? t(`${ns}.declined`) : failure;
  return (
    <Stack spacing={4}>
      <PageHeader title={t(title)} />
      {message ? (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Alert severity="error" sx={{ alignSelf: 'stretch' }}>
            {message}
          </Alert>
          <Button
            component={Link}
            to={divisionId ? `/divisions/${divisionId}` : '/divisions'}
            variant="outlined"
          >
            {t('connectors.microsoft.back')}
          </Button>
        </Stack>
      ) : (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <CircularProgress size={24} />
          <Typography>{t(`${ns}.returning`)}</Typography>
        </Stack>
      )}
    </Stack>
  );
}

export const MicrosoftConsentPage = () => <ConsentCallbackPage kind="microsoft365" />;
export const GoogleConsentPage = () => <ConsentCallbackPage kind="googledrive" />;
