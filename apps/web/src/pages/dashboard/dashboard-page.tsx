import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Grid,
  LinearProgress,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { IconCircleCheck, IconCircleDashed } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { authContracts, dashboardContracts } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../api/http.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { errorMessage } from '../../components/form.tsx';
import { useSnackbar } from '../../components/snackbar.tsx';

/** The data manager's home: the company, the plan with days remaining and the next steps. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const snackbar = useSnackbar();
  const query = useQuery({ queryKey: ['dashboard'], queryFn: () => call(dashboardContracts.company) });
  const data = query.data;
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' });

  const resend = async () => {
    try {
      snackbar((await call(authContracts.resendVerification)).message);
    } catch (error) {
      snackbar(errorMessage(error, t), 'error');
    }
  };

  return (
    <Stack spacing={6}>
      <Typography variant="h4" component="h1">
        {t('pages.dashboard.welcome', { name: auth.session?.userData.firstName })}
      </Typography>
      {query.isError && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      <Grid container spacing={6}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card sx={{ height: '100%' }}>
            <CardContent>
              <Typography variant="overline" color="text.secondary">
                {t('pages.dashboard.company')}
              </Typography>
              {data ? (
                <Typography variant="h5" component="p">
                  {data.company.name ?? t('pages.dashboard.companyUnnamed')}
                </Typography>
              ) : (
                <Skeleton width="60%" height={36} />
              )}
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card sx={{ height: '100%' }} data-testid="plan-card">
            <CardContent>
              <Typography variant="overline" color="text.secondary">
                {t('pages.dashboard.plan')}
              </Typography>
              {!data ? (
                <Skeleton width="80%" height={60} />
              ) : data.plan ? (
                <Stack spacing={2}>
                  <Typography variant="h5" component="p">
                    {t(`plans.${data.plan.plan}`)}
                    {data.plan.status !== 'active' && ` · ${t(`plans.status.${data.plan.status}`)}`}
                  </Typography>
                  <Typography color="text.secondary">
                    {t('pages.dashboard.daysRemaining', { count: data.plan.daysRemaining })} ·{' '}
                    {t('pages.dashboard.activeUntil', {
                      date: dateFormat.format(new Date(data.plan.endsAt)),
                    })}
                  </Typography>
                  <LinearProgress
                    variant="determinate"
                    value={Math.min(100, (data.plan.daysRemaining / Math.max(1, data.plan.daysTotal)) * 100)}
                    aria-label={t('pages.dashboard.daysRemaining', { count: data.plan.daysRemaining })}
                  />
                </Stack>
              ) : (
                <Typography>{t('pages.dashboard.noPlan')}</Typography>
              )}
            </CardContent>
          </Card>
        </Grid>
        <Grid size={12}>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                {t('pages.dashboard.nextSteps')}
              </Typography>
              {data ? (
                <List>
                  {data.nextSteps.map(({ step, done }) => (
                    <ListItem
                      key={step}
                      secondaryAction={
                        !done && step === 'verifyEmail' ? (
                          <Button onClick={() => void resend()}>{t('pages.verify.resend')}</Button>
                        ) : !done && step === 'completeProfile' ? (
                          <Button component={Link} to="/account-settings/account">
                            {t('pages.dashboard.steps.completeProfileAction')}
                          </Button>
                        ) : undefined
                      }
                    >
                      <ListItemIcon>
                        {done ? (
                          <IconCircleCheck
                            color="var(--mui-palette-success-main, #28a745)"
                            aria-label={t('common.done')}
                          />
                        ) : (
                          <IconCircleDashed aria-label={t('common.open')} />
                        )}
                      </ListItemIcon>
                      <ListItemText
                        primary={t(`pages.dashboard.steps.${step}`)}
                        secondary={t(`pages.dashboard.steps.${step}Text`)}
                      />
                    </ListItem>
                  ))}
                </List>
              ) : (
                <Box>
                  <Skeleton height={48} />
                  <Skeleton height={48} />
                </Box>
              )}
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </Stack>
  );
}
