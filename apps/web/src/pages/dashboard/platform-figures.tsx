import { Grid, type GridSize, type Theme, Typography, useTheme } from '@mui/material';
import type { PlatformFigures as Figures } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../components/format.ts';
import { FigureCard } from './figure-card.tsx';
import { ChartTotals, TimeChart } from './time-chart.tsx';

/** A share of `part` in `whole` as 0–100, or null when the whole is nothing. */
const share = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : null);

type Day = Figures['daily'][number];
type Week = Figures['weekly'][number];
type Totals = Figures['totals'];
type Palette = Theme['palette'];
type Format = ReturnType<typeof useFormat>;

/** How the figures are said: a count, a size, a percentage, a share (0–1, "—" for none), files with their size. */
function sayings(format: Format) {
  const count = (value: number) => format.number(value);
  const percent = (value: number) => format.percent(value);
  return {
    count,
    percent,
    size: format.size,
    share: (value: number | null) => (value === null ? '—' : percent(value * 100)),
    /** A number of files with their size: "12 · 3.4 MB". */
    filesWithSize: (files: number, bytes: number) => `${count(files)} · ${format.size(bytes)}`,
  };
}
type Say = ReturnType<typeof sayings>;

/** One figure card: its test id and locale key, its value and the note under it. */
interface FigureConfig {
  id: string;
  label: string;
  size: { xs: GridSize; sm: GridSize; lg: GridSize };
  value: (totals: Totals, say: Say) => string;
  /** The note's locale key with its values, or a fixed note. */
  note?: { key: string; values?: (totals: Totals, say: Say) => Record<string, string> };
}

const quarter = { xs: 12, sm: 6, lg: 3 } as const;
const third = { xs: 12, sm: 6, lg: 4 } as const;

const FIGURES: FigureConfig[] = [
  {
    id: 'figure-companies',
    label: 'companies',
    size: quarter,
    value: (totals, say) => say.count(totals.companies),
    note: { key: 'newInPeriod', values: (totals, say) => ({ value: say.count(totals.newCompanies) }) },
  },
  {
    id: 'figure-active-users',
    label: 'activeUsers',
    size: quarter,
    value: (totals, say) => say.count(totals.activeUsers),
    note: { key: 'newUsers', values: (totals, say) => ({ value: say.count(totals.signUps) }) },
  },
  {
    id: 'figure-files',
    label: 'files',
    size: quarter,
    value: (totals, say) => say.count(totals.files),
    note: { key: 'storage', values: (totals, say) => ({ size: say.size(totals.storageBytes) }) },
  },
  {
    id: 'figure-questions',
    label: 'questions',
    size: quarter,
    value: (totals, say) => say.count(totals.questions),
  },
  {
    id: 'figure-answered',
    label: 'answeredShare',
    size: third,
    value: (totals, say) => say.share(totals.answeredShare),
    note: { key: 'answeredNote' },
  },
  {
    id: 'figure-satisfaction',
    label: 'satisfaction',
    size: third,
    value: (totals, say) => say.share(totals.satisfaction),
    note: { key: 'satisfactionNote' },
  },
  {
    id: 'figure-failed',
    label: 'failedFiles',
    size: third,
    value: (totals, say) => say.count(totals.failedFiles),
    note: { key: 'failedNote' },
  },
];

/** One series of a chart: its key (id and locale key), colour, values over time and its total in words. */
interface SeriesConfig<P> {
  key: string;
  color: (palette: Palette) => string;
  value: (point: P) => number | null;
  total: (totals: Totals, say: Say) => string;
}

/** One chart: lines over days or bars over weeks, with its series. */
type ChartConfig = {
  id: string;
  title: string;
  kind: 'line' | 'bar';
  wide?: boolean;
  format: (say: Say) => (value: number) => string;
  valueWidth?: number;
} & (
  | { over: 'days'; series: Array<SeriesConfig<Day>> }
  | { over: 'weeks'; series: Array<SeriesConfig<Week>> }
);

const CHARTS: ChartConfig[] = [
  {
    id: 'chart-growth',
    title: 'growth',
    kind: 'bar',
    over: 'weeks',
    format: (say) => say.count,
    series: [
      {
        key: 'newCompanies',
        color: (p) => p.primary.main,
        value: (w) => w.newCompanies,
        total: (totals, say) => say.count(totals.newCompanies),
      },
      {
        key: 'signUps',
        color: (p) => p.info.main,
        value: (w) => w.signUps,
        total: (totals, say) => say.count(totals.signUps),
      },
    ],
  },
  {
    id: 'chart-active-users',
    title: 'activeUsers',
    kind: 'line',
    over: 'days',
    format: (say) => say.count,
    series: [
      {
        key: 'activeUsers',
        color: (p) => p.primary.main,
        value: (d) => d.activeUsers,
        total: (totals, say) => say.count(totals.activeUsers),
      },
    ],
  },
  {
    id: 'chart-files',
    title: 'filesAdded',
    kind: 'bar',
    over: 'weeks',
    format: (say) => say.count,
    series: [
      {
        key: 'filesAdded',
        color: (p) => p.secondary.main,
        value: (w) => w.filesAdded,
        total: (totals, say) => say.filesWithSize(totals.filesAdded, totals.bytesAdded),
      },
    ],
  },
  {
    id: 'chart-storage',
    title: 'storage',
    kind: 'bar',
    over: 'weeks',
    format: (say) => say.size,
    valueWidth: 88,
    series: [
      {
        key: 'storage',
        color: (p) => p.info.main,
        value: (w) => w.storageBytes,
        total: (totals, say) => say.filesWithSize(totals.files, totals.storageBytes),
      },
    ],
  },
  {
    id: 'chart-questions',
    title: 'questions',
    kind: 'line',
    over: 'days',
    format: (say) => say.count,
    series: [
      {
        key: 'questions',
        color: (p) => p.primary.main,
        value: (d) => d.questions,
        total: (totals, say) => say.count(totals.questions),
      },
    ],
  },
  {
    id: 'chart-quality',
    title: 'quality',
    kind: 'line',
    over: 'days',
    format: (say) => say.percent,
    series: [
      {
        key: 'answeredShare',
        color: (p) => p.success.main,
        value: (d) => share(d.answered, d.answers),
        total: (totals, say) => say.share(totals.answeredShare),
      },
      {
        key: 'satisfaction',
        color: (p) => p.info.main,
        value: (d) => share(d.likes, d.likes + d.dislikes),
        total: (totals, say) => say.share(totals.satisfaction),
      },
    ],
  },
  {
    id: 'chart-failed',
    title: 'failed',
    kind: 'bar',
    over: 'days',
    wide: true,
    format: (say) => say.count,
    series: [
      {
        key: 'failedFiles',
        color: (p) => p.error.main,
        value: (d) => d.failedFiles,
        total: (totals, say) => say.count(totals.failedFiles),
      },
    ],
  },
];

/** A chart's series with their values from the figures' days or weeks. */
function seriesOf(chart: ChartConfig, figures: Figures | undefined) {
  if (chart.over === 'days') {
    const days = figures?.daily ?? [];
    return chart.series.map((s) => ({ config: s, data: days.map(s.value) }));
  }
  const weeks = figures?.weekly ?? [];
  return chart.series.map((s) => ({ config: s, data: weeks.map(s.value) }));
}

/**
 * The platform's figures over a period, for the operator's dashboard and the analysis area: the period's totals as
 * figure cards, then growth (companies, new users, active users), files and storage, questions, the answered share
 * with satisfaction, and failed processing over time.
 */
export function PlatformFigures({ figures }: { figures: Figures | undefined }) {
  const { t, i18n } = useTranslation();
  const palette = useTheme().palette;
  const say = sayings(useFormat());
  const totals = figures?.totals;
  const dates = {
    days: figures?.daily.map((d) => d.date),
    weeks: figures?.weekly.map((w) => w.week),
  };
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const day = (date: string) => dateFormat.format(new Date(`${date}T00:00:00Z`));
  const series = (key: string) => t(`admin.dashboard.series.${key}`);

  return (
    <Grid container spacing={6} data-testid="platform-figures">
      <Grid size={12}>
        <Typography color="text.secondary" data-testid="period-shown">
          {figures
            ? t('admin.dashboard.periodShown', { from: day(figures.period.from), to: day(figures.period.to) })
            : '\u00a0'}
        </Typography>
      </Grid>
      {FIGURES.map((figure) => (
        <Grid key={figure.id} size={figure.size}>
          <FigureCard
            testId={figure.id}
            label={t(`admin.dashboard.figures.${figure.label}`)}
            value={totals && figure.value(totals, say)}
            note={
              figure.note &&
              (figure.note.values
                ? totals && t(`admin.dashboard.figures.${figure.note.key}`, figure.note.values(totals, say))
                : t(`admin.dashboard.figures.${figure.note.key}`))
            }
          />
        </Grid>
      ))}
      {CHARTS.map((chart) => {
        const lines = seriesOf(chart, figures);
        return (
          <Grid key={chart.id} size={chart.wide ? 12 : { xs: 12, lg: 6 }}>
            <TimeChart
              id={chart.id}
              title={t(`admin.dashboard.charts.${chart.title}`)}
              kind={chart.kind}
              dates={dates[chart.over]}
              format={chart.format(say)}
              valueWidth={chart.valueWidth}
              series={lines.map(({ config, data }) => ({
                id: config.key,
                label: series(config.key),
                data,
                color: config.color(palette),
              }))}
              summary={
                totals && (
                  <ChartTotals
                    items={lines.map(({ config }) => ({
                      color: config.color(palette),
                      text: t('admin.dashboard.charts.total', {
                        label: series(config.key),
                        value: config.total(totals, say),
                      }),
                    }))}
                  />
                )
              }
            />
          </Grid>
        );
      })}
    </Grid>
  );
}
