import { Box, Card, CardContent, Skeleton, Stack, Typography, useTheme } from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDateAxis } from '../../components/date-axis.ts';

export interface SeriesPoint {
  date: string;
  questions: number;
  likes: number;
  dislikes: number;
}

const KINDS = ['questions', 'likes', 'dislikes'] as const;

/** Questions, likes and dislikes per day as a line chart, with the period's totals in words beside it. */
export function FeedbackChart({
  title,
  items,
  height = 280,
}: {
  title: string;
  /** Undefined while loading. */
  items: SeriesPoint[] | undefined;
  height?: number;
}) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const axis = useDateAxis((items ?? []).map((p) => p.date));
  // Counts in the interface language's digits and separators (d3's default is English: "1,000", "0.5").
  const count = useMemo(
    () => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 }),
    [i18n.language],
  );
  const colors = {
    questions: theme.palette.primary.light,
    likes: theme.palette.success.main,
    dislikes: theme.palette.error.main,
  };
  const totals = KINDS.map((kind) => ({
    kind,
    total: (items ?? []).reduce((sum, p) => sum + p[kind], 0),
  }));
  // A period without any question or feedback is said in one sentence: a plot of zeros shows nothing.
  const empty = totals.every(({ total }) => total === 0);
  return (
    <Card component="section" aria-labelledby="feedback-chart-title" data-testid="feedback-chart">
      <CardContent>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          sx={{ justifyContent: 'space-between', gap: 2, alignItems: { sm: 'baseline' } }}
        >
          <Typography id="feedback-chart-title" variant="h6" component="h2">
            {title}
          </Typography>
          {items && !empty && (
            <Stack
              direction="row"
              useFlexGap
              component="ul"
              sx={{ listStyle: 'none', m: 0, p: 0, columnGap: 4, rowGap: 1, flexWrap: 'wrap' }}
            >
              {totals.map(({ kind, total }) => (
                <Typography key={kind} component="li" variant="body2" color="text.secondary">
                  <Box
                    component="span"
                    aria-hidden
                    sx={{
                      display: 'inline-block',
                      width: 10,
                      height: 10,
                      borderRadius: '50%',
                      bgcolor: colors[kind],
                      mr: 1,
                    }}
                  />
                  {t(`reports.series.${kind}Total`, { count: total })}
                </Typography>
              ))}
            </Stack>
          )}
        </Stack>
        {!items ? (
          <Skeleton variant="rounded" height={height} sx={{ mt: 4 }} />
        ) : empty ? (
          <Typography color="text.secondary" sx={{ py: 10, textAlign: 'center' }}>
            {t('reports.chartEmpty')}
          </Typography>
        ) : (
          <Box sx={{ mt: 2 }} aria-hidden>
            <LineChart
              height={height}
              hideLegend
              // The chart is hidden from assistive technology (the totals above say it in words), so it takes no focus.
              disableKeyboardNavigation
              grid={{ horizontal: true }}
              // Time runs with the reading direction, with fewer and shorter dates on phones (useDateAxis).
              xAxis={[{ ...axis.xAxis, scaleType: 'point' }]}
              // Counts: whole numbers only, in the interface language's format.
              yAxis={[
                {
                  tickMinStep: 1,
                  valueFormatter: (value: number) => count.format(value),
                  width: 40,
                  position: axis.valuePosition,
                },
              ]}
              series={KINDS.map((kind) => ({
                id: kind,
                label: t(`reports.series.${kind}`),
                data: items.map((p) => p[kind]),
                color: colors[kind],
                showMark: items.length <= 14,
                curve: 'linear' as const,
              }))}
              margin={axis.margin}
            />
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
