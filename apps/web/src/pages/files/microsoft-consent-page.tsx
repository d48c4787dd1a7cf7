import { Alert, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CONSENT_DIVISION_KEY, useCompleteMicrosoftConsent } from '../../api/connectors.ts';
import { errorMessage } from '../../components/form.tsx';
import { PageHeader } from '../../components/page-header.tsx';

/**
 * `/connectors/microsoft365/callback`: where Microsoft's consent page sends the browser back. With a code, the
 * connection is ended on the server once (the code is good for one use) and the division's page opens, its first
 * sync running; when Microsoft gave no access, or the server refused, the page says why and leads back.
 */
export default function MicrosoftConsentPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [failure, setFailure] = useState<string | null>(null);
  const sent = useRef(false);
  const divisionId = sessionStorage.getItem(CONSENT_DIVISION_KEY);
  const complete = useCompleteMicrosoftConsent({
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

  const message = declined ? t('connectors.microsoft.declined') : failure;
  return (
    <Stack spacing={4}>
      <PageHeader title={t('pages.microsoftConsent.title')} />
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
          <Typography>{t('connectors.microsoft.returning')}</Typography>
        </Stack>
      )}
    </Stack>
  );
}
