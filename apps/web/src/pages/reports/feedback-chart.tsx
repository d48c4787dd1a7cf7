import { Box, Card, CardContent, Skeleton, Stack, Typography, useTheme } from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

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
  const rtl = theme.direction === 'rtl';
  const day = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
    [i18n.language],
  );
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
  const label = (date: string) => day.format(new Date(`${date}T00:00:00Z`));
  // A period without any question or feedback is said in one sentence: a plot of zeros shows nothing.
  const empty = totals.every(({ total }) => total === 0);
  // About seven dates along the axis, however long the period; labels that would overlap on a narrow screen are left out.
  const every = Math.max(1, Math.ceil((items?.length ?? 0) / 7));
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
              // Time runs with the reading direction; the value axis stands where a line starts.
              xAxis={[
                {
                  scaleType: 'point',
                  data: items.map((p) => p.date),
                  valueFormatter: label,
                  reverse: rtl,
                  tickInterval: (_date: string, index: number) => index % every === 0,
                  tickLabelInterval: 'auto',
                },
              ]}
              // Counts: whole numbers only, in the interface language's format.
              yAxis={[
                {
                  tickMinStep: 1,
                  valueFormatter: (value: number) => count.format(value),
                  width: 40,
                  position: rtl ? 'right' : 'left',
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
              margin={
                rtl ? { left: 16, right: 8, top: 16, bottom: 8 } : { left: 8, right: 16, top: 16, bottom: 8 }
              }
            />
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
