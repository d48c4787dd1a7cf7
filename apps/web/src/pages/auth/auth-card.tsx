import { Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** Title, intro and content of a sign-in screen. */
export function AuthCard({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack spacing={5}>
      <div>
        <Typography variant="h4" component="h1" gutterBottom>
          {title}
        </Typography>
        {intro && <Typography color="text.secondary">{intro}</Typography>}
      </div>
      {children}
    </Stack>
  );
}
