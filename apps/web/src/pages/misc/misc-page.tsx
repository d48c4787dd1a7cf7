import { Button, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';

/** The shape of every error and status page: a code, a title, a sentence and the way back. */
export function MiscPage({ code, name, to = '/redirecting' }: { code?: string; name: string; to?: string }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={4} sx={{ textAlign: 'center', alignItems: 'center' }}>
      {code && (
        <Typography variant="h1" component="p" sx={{ fontWeight: 700, color: 'primary.main' }} aria-hidden>
          {code}
        </Typography>
      )}
      <PageHeader title={t(`pages.${name}.heading`)} />
      <Typography color="text.secondary">{t(`pages.${name}.text`)}</Typography>
      <Button component={Link} to={to} variant="contained" data-testid="back-home">
        {t('pages.backHome')}
      </Button>
    </Stack>
  );
}
