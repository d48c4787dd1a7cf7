import { Alert, Card, CardContent, Grid, Skeleton, Stack, Typography } from '@mui/material';
import { USER_KINDS } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { useAdminDashboard } from '../../api/dashboard.ts';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { figureLabelSx } from './figure-label.ts';

function Figure({ label, value }: { label: string; value: number | undefined }) {
  const format = useFormat();
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="overline" color="text.secondary" component="h2" sx={figureLabelSx}>
          {label}
        </Typography>
        {value === undefined ? (
          <Skeleton width={60} height={40} />
        ) : (
          <Typography variant="h4" component="p">
            {format.number(value)}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

/** The operator's home: companies, users by kind, e-mails by status and sign-ins of the last 7 days. */
export default function AdminDashboardPage() {
  const { t } = useTranslation();
  const query = useAdminDashboard();
  const d = query.data;
  return (
    <Stack spacing={6}>
      <Typography variant="h4" component="h1">
        {t('pages.adminDashboard.title')}
      </Typography>
      {query.isError && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      <Grid container spacing={6}>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <Figure label={t('pages.adminDashboard.companies')} value={d?.companies} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <Figure label={t('pages.adminDashboard.signIns')} value={d?.signInsLast7Days} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <Figure label={t('pages.adminDashboard.failedSignIns')} value={d?.failedSignInsLast7Days} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <Figure
            label={t('pages.adminDashboard.mailsNotSent')}
            value={d ? (d.emails.not_sent ?? 0) + (d.emails.failed ?? 0) : undefined}
          />
        </Grid>
        {USER_KINDS.map((kind) => (
          <Grid key={kind} size={{ xs: 12, sm: 6, lg: 2.4 }}>
            <Figure label={t(`roles.${kind}`)} value={d ? (d.users[kind] ?? 0) : undefined} />
          </Grid>
        ))}
      </Grid>
    </Stack>
  );
}
