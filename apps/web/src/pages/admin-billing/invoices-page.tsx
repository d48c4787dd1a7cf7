import { Stack } from '@mui/material';
import { type Invoice, invoiceStatusShown } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { invoiceTable } from '../../api/billing.ts';
import { useConfig } from '../../app/config-context.tsx';
import { CellText } from '../../components/cell-text.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { InvoiceActions } from '../billing/invoice-actions.tsx';
import { useMoney } from '../billing/money.ts';
import NotFoundPage from '../misc/not-found-page.tsx';

/** `/admin/invoice/list`: every company's invoices; only where billing is on (else the spec's 404). */
export default function InvoicesPage() {
  const { t, i18n } = useTranslation();
  const config = useConfig();
  const money = useMoney();
  if (!config.payments.enabled) return <NotFoundPage />;
  const date = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(iso));
  const columns: Column<Invoice>[] = [
    {
      id: 'number',
      label: t('billing.history.number'),
      render: (i) => i.number ?? '—',
      csv: (i) => i.number,
    },
    {
      id: 'company',
      label: t('admin.payments.company'),
      fill: true,
      render: (i) => <CellText text={i.companyName ?? t('admin.companies.unnamed')} />,
      csv: (i) => i.companyName,
    },
    {
      id: 'total',
      label: t('billing.history.total'),
      render: (i) => money(i.totalCents, i.currency),
      csv: (i) => i.totalCents / 100,
    },
    {
      id: 'paid',
      label: t('billing.history.paid'),
      render: (i) => money(i.paidCents, i.currency),
      csv: (i) => i.paidCents / 100,
    },
    {
      id: 'status',
      label: t('billing.history.status'),
      render: (i) => t(`billing.invoiceStatus.${invoiceStatusShown(i)}`),
      csv: (i) => i.status,
    },
    {
      id: 'issued',
      label: t('billing.history.issued'),
      render: (i) => date(i.issuedAt),
      csv: (i) => i.issuedAt,
    },
    {
      id: 'actions',
      label: t('billing.history.actions'),
      render: (i) => <InvoiceActions id={i.id} previewPath={`/admin/invoice/preview/${i.id}`} />,
    },
  ];
  return (
    <Stack spacing={4}>
      <PageHeader title={t('admin.invoices.title')} />
      <DataTable
        queryKey={invoiceTable.queryKey}
        fetchPage={invoiceTable.fetchPage}
        columns={columns}
        rowKey={(i) => i.id}
        emptyText={t('billing.history.empty')}
        caption={t('admin.invoices.title')}
        csvName="invoices"
      />
    </Stack>
  );
}
