import { Card, CardContent, Stack, Typography } from '@mui/material';
import type { FormEventHandler, ReactNode } from 'react';

/** One form of the security tab: a card with its title, what the change does, and the form named by the title. */
export function SecurityFormCard(props: {
  title: string;
  intro: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {props.title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          {props.intro}
        </Typography>
        <Stack
          component="form"
          spacing={4}
          noValidate
          onSubmit={props.onSubmit}
          sx={{ maxWidth: 480 }}
          aria-label={props.title}
        >
          {props.children}
        </Stack>
      </CardContent>
    </Card>
  );
}
