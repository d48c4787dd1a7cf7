import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  CircularProgress,
  Grid,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import {
  IconCircleCheck,
  IconCircleDashed,
  IconFileCheck,
  IconMessageCheck,
  IconMessageQuestion,
  IconMessages,
  IconMoodHappy,
} from '@tabler/icons-react';
import type { NEXT_STEPS } from '@werkwissen/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useResendVerification } from '../../api/account.ts';
import { useCompanyDashboard } from '../../api/dashboard.ts';
import { useDivisions } from '../../api/divisions.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { FeedbackChart } from '../reports/feedback-chart.tsx';
import { figureLabelSx } from './figure-label.ts';
import { SalesFigures } from './sales-figures.tsx';

/** One figure of the chat's week: a label, the value (a skeleton while loading) and a line of context. */
function Figure({
  label,
  value,
  note,
  icon,
  testId,
}: {
  label: string;
  value: string | undefined;
  note?: string;
  icon: ReactNode;
  testId: string;
}) {
  return (
    <Card sx={{ height: '100%' }} data-testid={testId}>
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 2 }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="overline" color="text.secondary" component="h2" sx={figureLabelSx}>
              {label}
            </Typography>
            {value === undefined ? (
              <Skeleton width={60} height={40} />
            ) : (
              <Typography variant="h4" component="p">
                {value}
              </Typography>
            )}
            {note && (
              <Typography variant="body2" color="text.secondary">
                {note}
              </Typography>
            )}
          </Box>
          <Box
            aria-hidden
            sx={{
              display: 'flex',
              p: 2,
              borderRadius: 2,
              color: 'primary.main',
              bgcolor: 'action.hover',
            }}
          >
            {icon}
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}

/** Used of total storage as a ring with the percentage inside. */
function StorageFigure() {
  const { t } = useTranslation();
  const format = useFormat();
  const divisions = useDivisions();
  const storage = divisions.data?.storage;
  if (divisions.isError) return null;
  const share = storage ? Math.min(100, (storage.usedBytes / Math.max(1, storage.limitBytes)) * 100) : 0;
  return (
    <Card sx={{ height: '100%' }} data-testid="figure-storage">
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 2 }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="overline" color="text.secondary" component="h2" sx={figureLabelSx}>
              {t('pages.dashboard.storage')}
            </Typography>
            {storage ? (
              <Typography variant="body2" color="text.secondary">
                {t('pages.dashboard.storageUsed', {
                  used: format.size(storage.usedBytes),
                  limit: format.size(storage.limitBytes),
                })}
              </Typography>
            ) : (
              <Skeleton width={100} />
            )}
          </Box>
          <Box sx={{ position: 'relative', display: 'inline-flex', flexShrink: 0 }}>
            <CircularProgress
              variant="determinate"
              value={100}
              size={64}
              thickness={5}
              sx={{ color: 'action.hover', position: 'absolute' }}
              aria-hidden
            />
            <CircularProgress
              variant="determinate"
              value={share}
              size={64}
              thickness={5}
              color={share >= 90 ? 'warning' : 'primary'}
              aria-label={t('pages.dashboard.storage')}
            />
            <Box
              sx={{
                inset: 0,
                position: 'absolute',
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
              }}
            >
              <Typography variant="caption" component="span" sx={{ fontWeight: 600 }}>
                {storage ? format.percent(share) : ''}
              </Typography>
            </Box>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}

/** Where each next step is done: the account settings show the address to confirm and the details. */
const NEXT_STEP_PAGES: Record<(typeof NEXT_STEPS)[number], string> = {
  verifyEmail: '/account-settings/account',
  completeProfile: '/account-settings/account',
  uploadDocuments: '/divisions',
};

/**
 * The data manager's home: the week's chat figures and storage, questions and feedback over 30 days, the newest
 * knowledge gaps, the company, the plan with days remaining and the next steps.
 */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const query = useCompanyDashboard();
  const resendVerification = useResendVerification();
  const data = query.data;
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' });
  const format = useFormat();
  const chat = data?.chat;
  /** A share of 0–1 as a percentage, or a dash when there is nothing to share. */
  const share = (value: number | null) => (value === null ? '—' : format.percent(value * 100));

  return (
    <Stack spacing={6}>
      <PageHeader title={t('pages.dashboard.welcome', { name: auth.session?.userData.firstName })} />
      {query.isError && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      <Grid container spacing={6}>
        <Grid size={{ xs: 12, sm: 6, lg: 2.4 }}>
          <Figure
            testId="figure-files-ready"
            label={t('pages.dashboard.filesReady')}
            value={chat && format.number(chat.filesReady)}
            icon={<IconFileCheck size={24} />}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 2.4 }}>
          <StorageFigure />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 2.4 }}>
          <Figure
            testId="figure-questions"
            label={t('pages.dashboard.questionsThisWeek')}
            value={chat && format.number(chat.questionsThisWeek)}
            note={chat && t('pages.dashboard.questionsLastWeek', { count: chat.questionsLastWeek })}
            icon={<IconMessages size={24} />}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 2.4 }}>
          <Figure
            testId="figure-answered"
            label={t('pages.dashboard.answeredShare')}
            value={chat && share(chat.answeredShare)}
            note={t('pages.dashboard.answeredShareNote')}
            icon={<IconMessageCheck size={24} />}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 2.4 }}>
          <Figure
            testId="figure-satisfaction"
            label={t('pages.dashboard.satisfaction')}
            value={chat && share(chat.satisfaction)}
            note={t('pages.dashboard.satisfactionNote')}
            icon={<IconMoodHappy size={24} />}
          />
        </Grid>
        {data?.sales && <SalesFigures sales={data.sales} />}
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
                    {!['active', 'trial'].includes(data.plan.status) &&
                      ` · ${t(`plans.status.${data.plan.status}`)}`}
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
        <Grid size={{ xs: 12, lg: 8 }}>
          <FeedbackChart title={t('pages.dashboard.chartTitle')} items={chat?.series} height={260} />
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <Card
            component="section"
            aria-labelledby="dashboard-gaps-title"
            data-testid="dashboard-gaps"
            sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
          >
            <CardContent sx={{ flex: 1 }}>
              <Typography id="dashboard-gaps-title" variant="h6" component="h2">
                {t('pages.dashboard.gapsTitle')}
              </Typography>
              {!chat ? (
                <Box>
                  <Skeleton height={48} />
                  <Skeleton height={48} />
                </Box>
              ) : chat.gaps.length === 0 ? (
                <Typography color="text.secondary" sx={{ mt: 2 }}>
                  {t('pages.dashboard.noGaps')}
                </Typography>
              ) : (
                <List dense>
                  {chat.gaps.slice(0, 5).map((gap) => (
                    <ListItem key={gap.question} disableGutters alignItems="flex-start">
                      <ListItemIcon sx={{ minWidth: 36, mt: 1, color: 'warning.main' }}>
                        <IconMessageQuestion size={20} aria-hidden />
                      </ListItemIcon>
                      <ListItemText
                        primary={<bdi>{gap.question}</bdi>}
                        secondary={`${t('gaps.count', { count: gap.count })} · ${t('gaps.lastAsked', {
                          date: format.dateTime(gap.lastAskedAt),
                        })}`}
                        slotProps={{ primary: { sx: { wordBreak: 'break-word' } } }}
                      />
                    </ListItem>
                  ))}
                </List>
              )}
            </CardContent>
            <CardActions>
              <Button component={Link} to="/feedback-report/knowledge-gaps">
                {t('pages.dashboard.allGaps')}
              </Button>
            </CardActions>
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
                      disablePadding
                      secondaryAction={
                        !done && step === 'verifyEmail' ? (
                          <Button onClick={() => resendVerification.mutate()}>
                            {t('pages.verify.resend')}
                          </Button>
                        ) : undefined
                      }
                    >
                      <ListItemButton component={Link} to={NEXT_STEP_PAGES[step]}>
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
                      </ListItemButton>
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
