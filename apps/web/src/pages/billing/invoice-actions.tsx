import { Button, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { invoicePdfUrl } from '../../api/billing.ts';

/** An invoice row's actions: its preview (in the customer's or the operator's area) and its PDF. */
export function InvoiceActions({ id, previewPath }: { id: string; previewPath: string }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1}>
      <Button size="small" component={RouterLink} to={previewPath}>
        {t('billing.history.view')}
      </Button>
      <Button size="small" component="a" href={invoicePdfUrl(id)} download>
        {t('billing.history.pdf')}
      </Button>
    </Stack>
  );
}
