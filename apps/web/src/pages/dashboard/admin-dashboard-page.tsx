import { Alert, Grid, Stack, Typography } from '@mui/material';
import { USER_KINDS } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { useAdminDashboard } from '../../api/dashboard.ts';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { FigureCard } from './figure-card.tsx';
import { PeriodPicker, usePeriod } from './period-picker.tsx';
import { PlatformFigures } from './platform-figures.tsx';

/**
 * The operator's home: companies, users by kind, e-mails by status and sign-ins of the last 7 days, then the
 * platform's figures over a chosen period.
 */
export default function AdminDashboardPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const period = usePeriod();
  const query = useAdminDashboard(period.query);
  const d = query.data;
  const figure = (value: number | undefined) => (value === undefined ? undefined : format.number(value));
  return (
    <Stack spacing={6}>
      <PageHeader title={t('pages.adminDashboard.title')} />
      {query.isError && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      <Grid container spacing={6}>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <FigureCard label={t('pages.adminDashboard.companies')} value={figure(d?.companies)} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <FigureCard label={t('pages.adminDashboard.signIns')} value={figure(d?.signInsLast7Days)} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <FigureCard
            label={t('pages.adminDashboard.failedSignIns')}
            value={figure(d?.failedSignInsLast7Days)}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <FigureCard
            label={t('pages.adminDashboard.mailsNotSent')}
            value={figure(d ? (d.emails.not_sent ?? 0) + (d.emails.failed ?? 0) : undefined)}
          />
        </Grid>
        {USER_KINDS.map((kind) => (
          <Grid key={kind} size={{ xs: 12, sm: 6, lg: 2.4 }}>
            <FigureCard label={t(`roles.${kind}`)} value={figure(d ? (d.users[kind] ?? 0) : undefined)} />
          </Grid>
        ))}
      </Grid>
      <Typography variant="h5" component="h2">
        {t('admin.dashboard.overTime')}
      </Typography>
      <PeriodPicker period={period} />
      <PlatformFigures figures={d?.figures} />
    </Stack>
  );
}
