import { Grid, Typography, useTheme } from '@mui/material';
import type { PlatformFigures as Figures } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../components/format.ts';
import { FigureCard } from './figure-card.tsx';
import { ChartTotals, TimeChart } from './time-chart.tsx';

/** A share of `part` in `whole` as 0–100, or null when the whole is nothing. */
const share = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : null);

/**
 * The platform's figures over a period, for the operator's dashboard and the analysis area: the period's totals as
 * figure cards, then growth (companies, new users, active users), files and storage, questions, the answered share
 * with satisfaction, and failed processing over time.
 */
export function PlatformFigures({ figures }: { figures: Figures | undefined }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const format = useFormat();
  const p = theme.palette;
  const totals = figures?.totals;
  const days = figures?.daily.map((d) => d.date);
  const weeks = figures?.weekly.map((w) => w.week);
  const daily = figures?.daily ?? [];
  const weekly = figures?.weekly ?? [];
  const count = (value: number) => format.number(value);
  const percent = (value: number) => format.percent(value);
  const total = (label: string, value: string) => t('admin.dashboard.charts.total', { label, value });
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const day = (date: string) => dateFormat.format(new Date(`${date}T00:00:00Z`));
  const series = (key: string) => t(`admin.dashboard.series.${key}`);
  /** A number of files with their size: "12 · 3.4 MB". */
  const filesWithSize = (files: number, bytes: number) => `${count(files)} · ${format.size(bytes)}`;
  const shareOf = (value: number | null) => (value === null ? '—' : percent(value * 100));

  return (
    <Grid container spacing={6} data-testid="platform-figures">
      <Grid size={12}>
        <Typography color="text.secondary" data-testid="period-shown">
          {figures
            ? t('admin.dashboard.periodShown', { from: day(figures.period.from), to: day(figures.period.to) })
            : '\u00a0'}
        </Typography>
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
        <FigureCard
          testId="figure-companies"
          label={t('admin.dashboard.figures.companies')}
          value={totals && count(totals.companies)}
          note={totals && t('admin.dashboard.figures.newInPeriod', { value: count(totals.newCompanies) })}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
        <FigureCard
          testId="figure-active-users"
          label={t('admin.dashboard.figures.activeUsers')}
          value={totals && count(totals.activeUsers)}
          note={totals && t('admin.dashboard.figures.newUsers', { value: count(totals.signUps) })}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
        <FigureCard
          testId="figure-files"
          label={t('admin.dashboard.figures.files')}
          value={totals && count(totals.files)}
          note={totals && t('admin.dashboard.figures.storage', { size: format.size(totals.storageBytes) })}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
        <FigureCard
          testId="figure-questions"
          label={t('admin.dashboard.figures.questions')}
          value={totals && count(totals.questions)}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 4 }}>
        <FigureCard
          testId="figure-answered"
          label={t('admin.dashboard.figures.answeredShare')}
          value={totals && shareOf(totals.answeredShare)}
          note={t('admin.dashboard.figures.answeredNote')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 4 }}>
        <FigureCard
          testId="figure-satisfaction"
          label={t('admin.dashboard.figures.satisfaction')}
          value={totals && shareOf(totals.satisfaction)}
          note={t('admin.dashboard.figures.satisfactionNote')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 4 }}>
        <FigureCard
          testId="figure-failed"
          label={t('admin.dashboard.figures.failedFiles')}
          value={totals && count(totals.failedFiles)}
          note={t('admin.dashboard.figures.failedNote')}
        />
      </Grid>

      <Grid size={{ xs: 12, lg: 6 }}>
        <TimeChart
          id="chart-growth"
          title={t('admin.dashboard.charts.growth')}
          kind="bar"
          dates={weeks}
          format={count}
          series={[
            {
              id: 'newCompanies',
              label: series('newCompanies'),
              data: weekly.map((w) => w.newCompanies),
              color: p.primary.main,
            },
            {
              id: 'signUps',
              label: series('signUps'),
              data: weekly.map((w) => w.signUps),
              color: p.info.main,
            },
          ]}
          summary={
            totals && (
              <ChartTotals
                items={[
                  { color: p.primary.main, text: total(series('newCompanies'), count(totals.newCompanies)) },
                  { color: p.info.main, text: total(series('signUps'), count(totals.signUps)) },
                ]}
              />
            )
          }
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <TimeChart
          id="chart-active-users"
          title={t('admin.dashboard.charts.activeUsers')}
          kind="line"
          dates={days}
          format={count}
          series={[
            {
              id: 'activeUsers',
              label: series('activeUsers'),
              data: daily.map((d) => d.activeUsers),
              color: p.primary.main,
            },
          ]}
          summary={
            totals && (
              <ChartTotals
                items={[
                  { color: p.primary.main, text: total(series('activeUsers'), count(totals.activeUsers)) },
                ]}
              />
            )
          }
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <TimeChart
          id="chart-files"
          title={t('admin.dashboard.charts.filesAdded')}
          kind="bar"
          dates={weeks}
          format={count}
          series={[
            {
              id: 'filesAdded',
              label: series('filesAdded'),
              data: weekly.map((w) => w.filesAdded),
              color: p.secondary.main,
            },
          ]}
          summary={
            totals && (
              <ChartTotals
                items={[
                  {
                    color: p.secondary.main,
                    text: total(series('filesAdded'), filesWithSize(totals.filesAdded, totals.bytesAdded)),
                  },
                ]}
              />
            )
          }
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <TimeChart
          id="chart-storage"
          title={t('admin.dashboard.charts.storage')}
          kind="bar"
          dates={weeks}
          format={format.size}
          valueWidth={88}
          series={[
            {
              id: 'storage',
              label: series('storage'),
              data: weekly.map((w) => w.storageBytes),
              color: p.info.main,
            },
          ]}
          summary={
            totals && (
              <ChartTotals
                items={[
                  {
                    color: p.info.main,
                    text: total(series('storage'), filesWithSize(totals.files, totals.storageBytes)),
                  },
                ]}
              />
            )
          }
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <TimeChart
          id="chart-questions"
          title={t('admin.dashboard.charts.questions')}
          kind="line"
          dates={days}
          format={count}
          series={[
            {
              id: 'questions',
              label: series('questions'),
              data: daily.map((d) => d.questions),
              color: p.primary.main,
            },
          ]}
          summary={
            totals && (
              <ChartTotals
                items={[{ color: p.primary.main, text: total(series('questions'), count(totals.questions)) }]}
              />
            )
          }
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <TimeChart
          id="chart-quality"
          title={t('admin.dashboard.charts.quality')}
          kind="line"
          dates={days}
          format={percent}
          series={[
            {
              id: 'answeredShare',
              label: series('answeredShare'),
              data: daily.map((d) => share(d.answered, d.answers)),
              color: p.success.main,
            },
            {
              id: 'satisfaction',
              label: series('satisfaction'),
              data: daily.map((d) => share(d.likes, d.likes + d.dislikes)),
              color: p.info.main,
            },
          ]}
          summary={
            totals && (
              <ChartTotals
                items={[
                  {
                    color: p.success.main,
                    text: total(series('answeredShare'), shareOf(totals.answeredShare)),
                  },
                  { color: p.info.main, text: total(series('satisfaction'), shareOf(totals.satisfaction)) },
                ]}
              />
            )
          }
        />
      </Grid>
      <Grid size={12}>
        <TimeChart
          id="chart-failed"
          title={t('admin.dashboard.charts.failed')}
          kind="bar"
          dates={days}
          format={count}
          series={[
            {
              id: 'failedFiles',
              label: series('failedFiles'),
              data: daily.map((d) => d.failedFiles),
              color: p.error.main,
            },
          ]}
          summary={
            totals && (
              <ChartTotals
                items={[
                  { color: p.error.main, text: total(series('failedFiles'), count(totals.failedFiles)) },
                ]}
              />
            )
          }
        />
      </Grid>
    </Grid>
  );
}
