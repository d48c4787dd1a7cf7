import { Alert, Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The recovery codes, shown once after an authenticator was set up. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  return (
    <Box>
      <Alert severity="warning" sx={{ mb: 3 }}>
        {t('auth.twoFactor.recoveryCodesIntro')}
      </Alert>
      <Box
        component="ul"
        data-testid="recovery-codes"
        dir="ltr"
        sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, 1fr)', gap: 1, p: 0, m: 0, listStyle: 'none' }}
      >
        {codes.map((code) => (
          <Typography component="li" key={code} sx={{ fontFamily: 'monospace' }}>
            {code}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}
