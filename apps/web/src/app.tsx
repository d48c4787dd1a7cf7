import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CssBaseline,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { MeResponse, PublicConfig } from '@werkwissen/shared';
import { type FormEvent, useEffect, useState } from 'react';

/** The first screen: sign in against the real identity API. */
export function App() {
  const [config, setConfig] = useState<PublicConfig | null>(null);
  const [me, setMe] = useState<MeResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    fetch('/api/v1/config')
      .then((r) => r.json() as Promise<PublicConfig>)
      .then(setConfig)
      .catch(() => setError('Network error or unexpected error.'));
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const res = await fetch('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: form.get('email'), password: form.get('password'), area: 'user' }),
    });
    const body = await res.json();
    if (res.ok) setMe(body as MeResponse);
    else setError(body.error.message);
  }

  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: '#f4f5fa' }}>
      <CssBaseline />
      <Card sx={{ width: 380 }}>
        <CardContent>
          <Stack spacing={2} component="form" onSubmit={onSubmit}>
            <img src="/assets/img/logo.png" width={100} alt={config?.appTitle ?? ''} />
            <Typography variant="h5" component="h1">
              {config?.appTitle}
            </Typography>
            {me ? (
              <Alert severity="success">{me.userData.fullName}</Alert>
            ) : (
              <>
                {error && <Alert severity="error">{error}</Alert>}
                <TextField name="email" type="email" label="E-Mail" required autoComplete="email" />
                <TextField
                  name="password"
                  type="password"
                  label="Passwort"
                  required
                  autoComplete="current-password"
                />
                <Button type="submit" variant="contained">
                  Anmelden
                </Button>
              </>
            )}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
