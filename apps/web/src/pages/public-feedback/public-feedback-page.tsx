import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Link,
  Rating,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { usePublicChat } from '../../api/public-chats.ts';
import { useSubmitPublicFeedback } from '../../api/public-feedback.ts';
import { useFormBotCheck } from '../../components/bot-check.tsx';
import { errorMessage } from '../../components/form.tsx';
import { CompanyColors } from '../public-chat/company-colors.tsx';
import { CompanyHeader } from '../public-chat/company-header.tsx';

/**
 * `/feedback-21chatgpt?chat=<share token>`: an anonymous visitor rates a public chat (one to five stars, an optional
 * comment and name) after the bot check; the company finds it in its public-feedback report.
 */
export default function PublicFeedbackPage() {
  // The blank layout brings no query cache (sign-in pages do without one): this page has its own.
  const [queryClient] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <RatedCompanyColors>
        <FeedbackForm />
      </RatedCompanyColors>
    </QueryClientProvider>
  );
}

/** The rated chat's company colour around the page, as on its chat page (the product's without a chat). */
function RatedCompanyColors({ children }: { children: ReactNode }) {
  const [params] = useSearchParams();
  const token = params.get('chat') ?? '';
  return token ? <ColorsOf token={token}>{children}</ColorsOf> : children;
}

function ColorsOf({ token, children }: { token: string; children: ReactNode }) {
  const chat = usePublicChat(token);
  return <CompanyColors color={chat.data?.companyColor ?? null}>{children}</CompanyColors>;
}

/** The company whose chat is rated, as its chat page shows it (nothing while unknown or when the link is gone). */
function RatedCompany({ token }: { token: string }) {
  const chat = usePublicChat(token);
  if (!chat.data) return null;
  return <CompanyHeader name={chat.data.companyName} logoUrl={chat.data.companyLogoUrl} />;
}

function FeedbackForm() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const chatToken = params.get('chat') ?? '';
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [name, setName] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [thanks, setThanks] = useState<string | null>(null);
  const botCheck = useFormBotCheck();
  const submit = useSubmitPublicFeedback({
    onSuccess: (res) => setThanks(res.message),
    claimError: (error) => {
      setFailure(errorMessage(error, t));
      botCheck.renew();
      return true;
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!rating) return setFailure(t('publicFeedback.ratingRequired'));
    if (!botCheck.ready) return setFailure(t('auth.botProtection.solveFirst'));
    submit.mutate({
      chatToken,
      rating,
      ...(comment.trim() ? { comment: comment.trim() } : {}),
      ...(name.trim() ? { name: name.trim() } : {}),
      ...botCheck.body,
    });
  };

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: { xs: 2, sm: 6 } }}>
      <Stack spacing={4} sx={{ width: '100%', maxWidth: 520 }}>
        {chatToken && <RatedCompany token={chatToken} />}
        <Card>
          <CardContent>
            <Typography variant="h4" component="h1" gutterBottom>
              {t('publicFeedback.title')}
            </Typography>
            {!chatToken ? (
              <Alert severity="warning">{t('publicFeedback.noChat')}</Alert>
            ) : thanks ? (
              <Stack spacing={4} sx={{ alignItems: 'flex-start' }}>
                <Alert severity="success" role="status" sx={{ alignSelf: 'stretch' }}>
                  {thanks}
                </Alert>
                {/* Not a dead end: back to the chat that was rated. */}
                <Link component={RouterLink} to={`/p/${encodeURIComponent(chatToken)}`}>
                  {t('publicFeedback.backToChat')}
                </Link>
              </Stack>
            ) : (
              <Stack component="form" spacing={4} noValidate onSubmit={onSubmit}>
                <Typography color="text.secondary">{t('publicFeedback.intro')}</Typography>
                {failure && (
                  <Alert severity="error" role="alert">
                    {failure}
                  </Alert>
                )}
                <Box>
                  <Typography component="legend" id="public-feedback-rating">
                    {t('publicFeedback.rating')}
                  </Typography>
                  <Rating
                    name="rating"
                    size="large"
                    value={rating}
                    onChange={(_event, value) => setRating(value)}
                    aria-labelledby="public-feedback-rating"
                  />
                </Box>
                <TextField
                  name="comment"
                  label={t('publicFeedback.comment')}
                  value={comment}
                  onChange={(event) => setComment(event.target.value)}
                  multiline
                  minRows={3}
                  slotProps={{ htmlInput: { maxLength: 2000 } }}
                />
                <TextField
                  name="name"
                  label={t('publicFeedback.name')}
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                  slotProps={{ htmlInput: { maxLength: 100 } }}
                />
                {botCheck.widget}
                <Button type="submit" variant="contained" size="large" disabled={submit.isPending}>
                  {t('publicFeedback.submit')}
                </Button>
              </Stack>
            )}
          </CardContent>
        </Card>
      </Stack>
    </Box>
  );
}
