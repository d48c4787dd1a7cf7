import { Card, CardContent, Skeleton, Typography } from '@mui/material';
import { figureLabelSx } from './figure-label.ts';

/** One figure of a dashboard: a label, the value (a skeleton while loading) and a line of context. */
export function FigureCard({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: string | undefined;
  note?: string;
  testId?: string;
}) {
  return (
    <Card sx={{ height: '100%' }} data-testid={testId}>
      <CardContent>
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
      </CardContent>
    </Card>
  );
}
