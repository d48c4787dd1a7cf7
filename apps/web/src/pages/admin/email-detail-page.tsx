import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Skeleton,
  Stack,
  Tab,
  Tabs,
  Typography,
  useTheme,
} from '@mui/material';
import { IconArrowBack, IconLockOpen, IconSend } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, matchPath, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { useEmail, useResendEmail } from '../../api/emails.ts';
import { ApiError } from '../../api/http.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { MailFrame } from '../../components/mail-frame.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { EmailStatusChip } from './email-status.tsx';
import { RevealLinkDialog } from './reveal-link-dialog.tsx';

/** `/admin/emails/:id`: one mail of the outbox as it went out (HTML and text), its delivery, and resending it. */
export default function EmailDetailPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const { ability } = useAuth();
  const theme = useTheme();
  const flip = theme.direction === 'rtl' ? { transform: 'scaleX(-1)' } : {};
  const emailId = matchPath('/admin/emails/:id', useLocation().pathname)?.params.id ?? '';
  const wellFormed = z.uuid().safeParse(emailId).success;
  const query = useEmail(emailId, { enabled: wellFormed });
  const notFound = !wellFormed || (query.error instanceof ApiError && query.error.status === 404);
  const [view, setView] = useState<'html' | 'text'>('html');
  const [confirming, setConfirming] = useState(false);
  const [revealing, setRevealing] = useState(false);
  const resend = useResendEmail({
    onSuccess: (data) => {
      setConfirming(false);
      navigate(`/admin/emails/${data.emailId}`);
    },
    onSettled: () => setConfirming(false),
  });
  const mail = query.data;
  // Only a mail that did not reach its recipient has a link an Administrator may need to pass on by hand.
  const undelivered = mail?.status === 'not_sent' || mail?.status === 'failed';
  const canReveal = Boolean(mail?.hiddenLink && undelivered && ability.can('update', 'Email'));

  const back = (
    <Button component={Link} to="/admin/emails" startIcon={<IconArrowBack size={18} style={flip} />}>
      {t('admin.emails.backToList')}
    </Button>
  );
  if (notFound) {
    return (
      <Stack spacing={4} sx={{ alignItems: 'flex-start' }}>
        <PageHeader title={t('admin.emails.detailTitle')} />
        <Alert severity="warning">{t('admin.emails.notFound')}</Alert>
        {back}
      </Stack>
    );
  }
  const facts: Array<[string, ReactNode]> = mail
    ? [
        [t('admin.emails.columns.to'), mail.to],
        [
          t('admin.emails.columns.template'),
          t(`admin.templates.kinds.${mail.template}`, { defaultValue: mail.template }),
        ],
        [t('admin.emails.language'), format.language(mail.language)],
        [t('admin.emails.columns.status'), <EmailStatusChip key="s" status={mail.status} />],
        [t('admin.emails.columns.reason'), mail.statusReason ?? t('admin.emails.noReason')],
        [t('admin.emails.columns.attempts'), format.number(mail.attempts)],
        [t('admin.emails.columns.created'), format.dateTime(mail.createdAt)],
        [t('admin.emails.sentAt'), mail.sentAt ? format.dateTime(mail.sentAt) : t('admin.emails.notYet')],
      ]
    : [];

  return (
    <Stack spacing={6}>
      <PageHeader
        title={t('admin.emails.detailTitle')}
        actions={
          <>
            {back}
            {ability.can('create', 'Email') && (
              <Button
                variant="contained"
                startIcon={<IconSend size={18} style={flip} />}
                disabled={!mail}
                onClick={() => setConfirming(true)}
              >
                {t('admin.emails.resend')}
              </Button>
            )}
          </>
        }
      />
      {query.isError && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      {!mail ? (
        !query.isError && <Skeleton variant="rounded" height={480} />
      ) : (
        <>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2" dir="auto" sx={{ mb: 4, overflowWrap: 'anywhere' }}>
                {mail.subject}
              </Typography>
              <Box
                component="dl"
                sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: 2, m: 0 }}
              >
                {facts.map(([label, value]) => (
                  <Box key={label} sx={{ display: 'contents' }}>
                    <Typography component="dt" color="text.secondary">
                      {label}
                    </Typography>
                    <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                      {value}
                    </Box>
                  </Box>
                ))}
              </Box>
            </CardContent>
          </Card>
          {mail.hiddenLink && (
            <Alert
              severity="info"
              action={
                canReveal && (
                  <Button
                    color="inherit"
                    size="small"
                    startIcon={<IconLockOpen size={18} />}
                    onClick={() => setRevealing(true)}
                  >
                    {t('admin.emails.revealLink')}
                  </Button>
                )
              }
            >
              {t('admin.emails.hiddenLink')}
              {canReveal && ` ${t('admin.emails.hiddenLinkUndelivered')}`}
            </Alert>
          )}
          <Card>
            <Tabs value={view} onChange={(_e, v) => setView(v)} sx={{ px: 4 }}>
              <Tab value="html" label={t('admin.emails.html')} />
              <Tab value="text" label={t('admin.emails.text')} />
            </Tabs>
            <CardContent>
              {view === 'html' ? (
                <MailFrame html={mail.html} title={t('admin.emails.html')} />
              ) : (
                <Box
                  component="pre"
                  dir="auto"
                  sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'monospace' }}
                >
                  {mail.text}
                </Box>
              )}
            </CardContent>
          </Card>
        </>
      )}
      {mail && (
        <RevealLinkDialog
          open={revealing}
          emailId={emailId}
          recipient={mail.to}
          onClose={() => setRevealing(false)}
        />
      )}
      <ConfirmDialog
        open={confirming}
        title={t('admin.emails.resendTitle')}
        text={t('admin.emails.resendText', { email: mail?.to ?? '' })}
        confirmLabel={t('admin.emails.resend')}
        pending={resend.isPending}
        onConfirm={() => resend.mutate(emailId)}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
