import { Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * The title block of a page: its one `h1`, an optional line under it and optional actions at the end of the row
 * (after the title in the reading direction, so on the left in Arabic).
 */
export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  const heading = (
    <Typography variant="h4" component="h1" sx={actions ? { flex: 1 } : undefined}>
      {title}
    </Typography>
  );
  const titleBlock = subtitle ? (
    <Stack spacing={1} sx={actions ? { flex: 1 } : undefined}>
      {heading}
      <Typography color="text.secondary">{subtitle}</Typography>
    </Stack>
  ) : (
    heading
  );
  if (!actions) return titleBlock;
  return (
    <Stack direction="row" spacing={3} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      {titleBlock}
      {actions}
    </Stack>
  );
}
