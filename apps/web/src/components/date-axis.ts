import { useMediaQuery, useTheme } from '@mui/material';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The time axis of a chart over days or weeks (dates YYYY-MM-DD), in the interface language and reading direction.
 * Wide screens show about seven dates as "3 Mar"; on phones (below `sm`) at most four, as "3/3" (Arabic month names
 * beside Arabic-Indic digits overlapped each other at 390 px with seven ticks). The value axis stands where time
 * starts: on the right in right-to-left languages.
 */
export function useDateAxis(dates: string[]) {
  const { i18n } = useTranslation();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const rtl = theme.direction === 'rtl';
  const format = useMemo(
    () =>
      new Intl.DateTimeFormat(i18n.language, {
        day: 'numeric',
        month: narrow ? 'numeric' : 'short',
        timeZone: 'UTC',
      }),
    [i18n.language, narrow],
  );
  /** The full date, for tooltips. */
  const long = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' }),
    [i18n.language],
  );
  const every = Math.max(1, Math.ceil(dates.length / (narrow ? 4 : 7)));
  return {
    rtl,
    narrow,
    xAxis: {
      data: dates,
      reverse: rtl,
      valueFormatter: (date: string, context: { location: string }) =>
        (context.location === 'tick' ? format : long).format(new Date(`${date}T00:00:00Z`)),
      tickInterval: (_date: string, index: number) => index % every === 0,
      tickLabelInterval: 'auto' as const,
    },
    valuePosition: rtl ? ('right' as const) : ('left' as const),
    // Room at the end of time for half of the last date, which stands on the edge of a line chart.
    margin: rtl ? { left: 24, right: 8, top: 16, bottom: 8 } : { left: 8, right: 24, top: 16, bottom: 8 },
  };
}
