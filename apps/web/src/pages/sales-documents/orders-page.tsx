import { Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header.tsx';
import { DocumentsTable } from './sales-documents-page.tsx';

/** /order: the company's order confirmations, with the same actions as in /handwerk. */
export default function OrdersPage() {
  const { t } = useTranslation();
  return (
    <Stack spacing={4}>
      <PageHeader title={t('handwerk.orders')} />
      <DocumentsTable type="order" caption={t('handwerk.orders')} />
    </Stack>
  );
}
