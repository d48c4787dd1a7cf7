import { Box, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDateAxis } from '../../components/date-axis.ts';

export interface TimeSeries {
  id: string;
  label: string;
  /** One value per date; null where there is nothing to show (a share of nothing). */
  data: Array<number | null>;
  color: string;
}

/**
 * One figure over time as a card: its title, the period's totals in words (the chart itself is hidden from
 * assistive technology), and lines over days or bars over weeks. A period with nothing to show says so in a sentence
 * instead of plotting zeros.
 */
export function TimeChart({
  id,
  title,
  kind,
  dates,
  series,
  format,
  summary,
  height = 240,
  valueWidth = 56,
}: {
  id: string;
  title: string;
  kind: 'line' | 'bar';
  /** Undefined while loading. */
  dates: string[] | undefined;
  series: TimeSeries[];
  /** A value in the interface language (count, size, percentage). */
  format: (value: number) => string;
  summary?: ReactNode;
  height?: number;
  /** Room for the value axis's labels (sizes such as "36 ميغابايت" need more than counts). */
  valueWidth?: number;
}) {
  const { t } = useTranslation();
  const axis = useDateAxis(dates ?? []);
  const empty = series.every((s) => s.data.every((v) => v === null || v === 0));
  const yAxis = [
    {
      tickMinStep: 1,
      valueFormatter: (value: number | null) => (value === null ? '' : format(value)),
      width: valueWidth,
      position: axis.valuePosition,
    },
  ];
  const common = {
    height,
    hideLegend: true,
    // The totals above say it in words; the chart takes no focus.
    disableKeyboardNavigation: true,
    grid: { horizontal: true },
    yAxis,
    margin: axis.margin,
  };
  return (
    <Card component="section" aria-labelledby={`${id}-title`} data-testid={id} sx={{ height: '100%' }}>
      <CardContent>
        <Stack spacing={1}>
          <Typography id={`${id}-title`} variant="h6" component="h2">
            {title}
          </Typography>
          {dates && !empty && summary}
        </Stack>
        {!dates ? (
          <Skeleton variant="rounded" height={height} sx={{ mt: 4 }} />
        ) : empty ? (
          <Typography color="text.secondary" sx={{ py: 10, textAlign: 'center' }}>
            {t('admin.dashboard.empty')}
          </Typography>
        ) : (
          <Box sx={{ mt: 2 }} aria-hidden data-chart-kind={kind}>
            {kind === 'bar' ? (
              <BarChart
                {...common}
                xAxis={[{ ...axis.xAxis, scaleType: 'band' }]}
                series={series.map((s) => ({
                  id: s.id,
                  label: s.label,
                  data: s.data,
                  color: s.color,
                  valueFormatter: (v: number | null) => (v === null ? '' : format(v)),
                }))}
              />
            ) : (
              <LineChart
                {...common}
                xAxis={[{ ...axis.xAxis, scaleType: 'point' }]}
                series={series.map((s) => ({
                  id: s.id,
                  label: s.label,
                  data: s.data,
                  color: s.color,
                  // Days without a value (a share of no answers) are bridged, and the days with one are marked.
                  connectNulls: true,
                  showMark: dates.length <= 14 || s.data.includes(null),
                  curve: 'linear' as const,
                  valueFormatter: (v: number | null) => (v === null ? '' : format(v)),
                }))}
              />
            )}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

/** The totals beside a chart: a coloured dot and a sentence per series. */
export function ChartTotals({ items }: { items: Array<{ color: string; text: string }> }) {
  return (
    <Stack
      direction="row"
      useFlexGap
      component="ul"
      sx={{ listStyle: 'none', m: 0, p: 0, columnGap: 4, rowGap: 1, flexWrap: 'wrap' }}
    >
      {items.map(({ color, text }) => (
        <Typography key={text} component="li" variant="body2" color="text.secondary">
          <Box
            component="span"
            aria-hidden
            sx={{
              display: 'inline-block',
              width: 10,
              height: 10,
              borderRadius: '50%',
              bgcolor: color,
              mr: 1,
            }}
          />
          {text}
        </Typography>
      ))}
    </Stack>
  );
}
