import { Button, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { TooltipRenderProps } from 'react-joyride';

/** What the tour hands each step's tooltip (through the step's `data`). */
export interface TourTooltipData {
  title: string;
  position: number;
  total: number;
  onGotIt(): void;
  onSkip(): void;
}

/** The spotlight's tooltip in the product's own look (an MUI card): the step, its place in the tour, and the way out. */
export function TourTooltip({ step, tooltipProps }: TooltipRenderProps) {
  const { t } = useTranslation();
  const data = step.data as TourTooltipData;
  return (
    <Paper
      {...tooltipProps}
      aria-labelledby="tour-tooltip-title"
      elevation={8}
      sx={{ p: 4, maxWidth: 360 }}
      data-testid="tour-tooltip"
    >
      <Stack spacing={2}>
        <Typography variant="overline" color="text.secondary">
          {t('tour.progress', { position: data.position, total: data.total })}
        </Typography>
        <Typography variant="h6" component="h2" id="tour-tooltip-title">
          {data.title}
        </Typography>
        <Typography variant="body2">{step.content}</Typography>
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={data.onSkip}>{t('tour.skip')}</Button>
          <Button variant="contained" onClick={data.onGotIt}>
            {t('tour.gotIt')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
