import { Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DocumentsTable } from './handwerk-page.tsx';

/** /order: the company's order confirmations, with the same actions as in /handwerk. */
export default function OrdersPage() {
  const { t } = useTranslation();
  return (
    <Stack spacing={4}>
      <Typography variant="h4" component="h1">
        {t('handwerk.orders')}
      </Typography>
      <DocumentsTable type="order" caption={t('handwerk.orders')} />
    </Stack>
  );
}
