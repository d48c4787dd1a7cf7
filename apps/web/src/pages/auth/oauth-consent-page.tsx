import { Alert, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPath, useLocation } from 'react-router';
import { useAnswerOAuthConsent, useOAuthConsent } from '../../api/mcp-oauth.ts';
import { errorMessage } from '../../components/form.tsx';
import { AuthCard } from './auth-card.tsx';

const hours = (seconds: number) => Math.round(seconds / 3600);
const days = (seconds: number) => Math.round(seconds / 86_400);

/**
 * `/oauth/consent/:uid`: an MCP client (Claude Desktop, claude.ai, an IDE) asks the signed-in user for access to the
 * company knowledge as them. Allowing sends the browser back to the client with a code; denying with a refusal.
 */
export default function OAuthConsentPage() {
  // The blank layout brings no query cache (sign-in pages do without one): this page has its own.
  const [queryClient] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <Consent />
    </QueryClientProvider>
  );
}

function Consent() {
  const { t } = useTranslation();
  // The app's one guarded route has no route patterns: the page reads its parameter from the address.
  const uid = matchPath('/oauth/consent/:uid', useLocation().pathname)?.params.uid ?? '';
  const consent = useOAuthConsent(uid);
  const answer = useAnswerOAuthConsent(uid, {
    onSuccess: ({ redirectTo }) => window.location.assign(redirectTo),
  });

  if (consent.isPending) {
    return (
      <AuthCard title={t('pages.oauthConsent.heading')}>
        <CircularProgress aria-label={t('shell.loading')} />
      </AuthCard>
    );
  }
  if (consent.isError) {
    return (
      <AuthCard title={t('pages.oauthConsent.heading')}>
        <Alert severity="error">{t('pages.oauthConsent.expired')}</Alert>
        <Typography variant="body2" color="text.secondary">
          {errorMessage(consent.error, t)}
        </Typography>
      </AuthCard>
    );
  }
  const data = consent.data;
  const busy = answer.isPending || answer.isSuccess;
  return (
    <AuthCard
      title={t('pages.oauthConsent.heading')}
      intro={t('pages.oauthConsent.intro', { client: data.clientName })}
    >
      <Stack spacing={3}>
        <Alert severity="info">{t('pages.oauthConsent.asUser', { email: data.email })}</Alert>
        <Typography component="ul" sx={{ m: 0, ps: 5 }}>
          <li>{t('pages.oauthConsent.reach')}</li>
          <li>{t('pages.oauthConsent.sendsTo', { host: data.redirectHost })}</li>
          <li>
            {t('pages.oauthConsent.lifetime', {
              hours: hours(data.accessTokenSeconds),
              days: days(data.refreshTokenSeconds),
            })}
          </li>
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('pages.oauthConsent.clientNameNote', { clientId: data.clientId })}
        </Typography>
        <Stack direction="row" spacing={3}>
          <Button variant="contained" disabled={busy} onClick={() => answer.mutate(true)}>
            {t('pages.oauthConsent.allow')}
          </Button>
          <Button variant="outlined" disabled={busy} onClick={() => answer.mutate(false)}>
            {t('pages.oauthConsent.deny')}
          </Button>
        </Stack>
      </Stack>
    </AuthCard>
  );
}
