import { Stack, Typography } from '@mui/material';
import { Logo } from '../../components/logo.tsx';

/**
 * Who the company's customers deal with on the public chat and feedback pages: the company's logo and name, not the
 * product's (the blank layout leaves its own logo out on these pages).
 */
export function CompanyHeader({ name, logoUrl }: { name: string | null; logoUrl: string | null }) {
  if (!name && !logoUrl) return null;
  return (
    <Stack
      direction="row"
      spacing={3}
      sx={{ alignItems: 'center', minWidth: 0 }}
      data-testid="company-header"
    >
      {logoUrl && <Logo src={logoUrl} alt={name ?? ''} />}
      {name && (
        <Typography variant="h6" component="p" sx={{ wordBreak: 'break-word' }}>
          {name}
        </Typography>
      )}
    </Stack>
  );
}
