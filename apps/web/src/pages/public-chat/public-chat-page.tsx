import { Alert, Box, Card, Link, Skeleton, Stack, Typography } from '@mui/material';
import { IconLinkOff } from '@tabler/icons-react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { matchPath } from '@werkwissen/shared';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { ApiError } from '../../api/http.ts';
import { publicConversation, usePublicChat, useReloadPublicChat } from '../../api/public-chats.ts';
import { errorMessage } from '../../components/form.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Conversation } from '../chat/conversation.tsx';
import { CompanyColors } from './company-colors.tsx';
import { CompanyHeader } from './company-header.tsx';
import { VisitorForm } from './visitor-form.tsx';

/** A link that was revoked, replaced, or never existed. */
function Gone() {
  const { t } = useTranslation();
  return (
    <Stack spacing={4} sx={{ alignItems: 'center', textAlign: 'center' }} data-testid="public-chat-gone">
      <Box sx={{ color: 'text.disabled' }}>
        <IconLinkOff size={56} stroke={1.2} aria-hidden />
      </Box>
      <PageHeader title={t('publicChat.goneTitle')} />
      <Typography color="text.secondary">{t('publicChat.goneText')}</Typography>
    </Stack>
  );
}

function PublicChatScreen({ token }: { token: string }) {
  const { t } = useTranslation();
  const chat = usePublicChat(token);
  const reload = useReloadPublicChat(token);
  const api = useMemo(() => publicConversation(token), [token]);
  // The visitor's cookie ran out: back to the bot check.
  const onRefused = useCallback(
    (error: ApiError) => {
      if (error.code === 'VISITOR_REQUIRED') reload();
    },
    [reload],
  );

  const error = chat.error;
  if (error instanceof ApiError && (error.status === 404 || error.code === 'VALIDATION_FAILED'))
    return <Gone />;
  if (chat.isError) return <Alert severity="error">{errorMessage(error, t)}</Alert>;
  const data = chat.data;
  if (!data) {
    return (
      <Stack spacing={4} aria-busy="true" aria-label={t('shell.loading')}>
        <Skeleton variant="text" width="60%" height={48} />
        <Skeleton variant="rounded" height={320} />
      </Stack>
    );
  }
  return (
    <CompanyColors color={data.companyColor}>
      <Stack spacing={4}>
        <CompanyHeader name={data.companyName} logoUrl={data.companyLogoUrl} />
        <Box>
          <Typography variant="h4" component="h1" sx={{ wordBreak: 'break-word' }}>
            {data.name}
          </Typography>
          {data.companyName && (
            <Typography color="text.secondary">
              {t('publicChat.by', { company: data.companyName })}
            </Typography>
          )}
          <Link component={RouterLink} to={`/feedback-21chatgpt?chat=${encodeURIComponent(token)}`}>
            {t('publicFeedback.rateLink')}
          </Link>
        </Box>
        {data.visitor ? (
          <Card sx={{ height: { xs: 'calc(100dvh - 220px)', md: 'min(70vh, 680px)' }, minHeight: 400 }}>
            <Conversation
              api={api}
              canAsk={data.canAsk}
              empty={t('publicChat.empty')}
              onRefused={onRefused}
            />
          </Card>
        ) : (
          <VisitorForm token={token} botCheck={data.botCheck} companyName={data.companyName} />
        )}
      </Stack>
    </CompanyColors>
  );
}

/** `/p/:token`: a public chat opened by its share link, for anyone, without an account. */
export default function PublicChatPage() {
  const location = useLocation();
  const token = matchPath('/p/:token', location.pathname)?.token ?? '';
  // The blank layout brings no query cache (sign-in pages do without one): this page has its own.
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      {token ? <PublicChatScreen token={token} /> : <Gone />}
    </QueryClientProvider>
  );
}
