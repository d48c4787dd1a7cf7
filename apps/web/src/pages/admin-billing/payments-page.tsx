import { Link, Stack } from '@mui/material';
import type { PaymentRow } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paymentTable } from '../../api/billing.ts';
import { CellText } from '../../components/cell-text.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useMoney } from '../billing/money.ts';

/** `/admin/payments`: every company's plan, its status, Stripe ids and what it paid. */
export default function PaymentsPage() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const date = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(iso));
  const columns: Column<PaymentRow>[] = [
    {
      id: 'company',
      label: t('admin.payments.company'),
      fill: true,
      minWidth: 200,
      // A link that wraps with its cell: a button keeps its text on one line and ran into the next columns on a phone.
      render: (p) => (
        <Link
          component={RouterLink}
          to={`/admin/payments/details/${p.companyId}`}
          sx={{ display: 'block', fontWeight: 600 }}
        >
          <CellText text={p.companyName ?? t('admin.companies.unnamed')} lines={4} />
        </Link>
      ),
      csv: (p) => p.companyName ?? '',
    },
    { id: 'plan', label: t('admin.payments.plan'), render: (p) => t(`plans.${p.plan}`), csv: (p) => p.plan },
    {
      id: 'status',
      label: t('admin.payments.status'),
      render: (p) => t(`plans.status.${p.status}`),
      csv: (p) => p.status,
    },
    {
      id: 'source',
      label: t('admin.payments.source'),
      render: (p) => t(`admin.payments.sources.${p.source}`),
      csv: (p) => p.source,
    },
    { id: 'endsAt', label: t('admin.payments.endsAt'), render: (p) => date(p.endsAt), csv: (p) => p.endsAt },
    {
      id: 'paid',
      label: t('admin.payments.paid'),
      render: (p) => money(p.paidCents, 'eur'),
      csv: (p) => p.paidCents / 100,
    },
    {
      id: 'stripe',
      label: t('admin.payments.stripeIds'),
      render: (p) => (
        <CellText text={[p.stripeCustomerId, p.stripeSubscriptionId].filter(Boolean).join(' · ') || '—'} />
      ),
      csv: (p) => [p.stripeCustomerId, p.stripeSubscriptionId].filter(Boolean).join(' '),
    },
  ];
  return (
    <Stack spacing={4}>
      <PageHeader title={t('admin.payments.title')} />
      <DataTable
        queryKey={paymentTable.queryKey}
        fetchPage={paymentTable.fetchPage}
        columns={columns}
        rowKey={(p) => p.companyId}
        emptyText={t('admin.payments.empty')}
        caption={t('admin.payments.title')}
        csvName="payments"
      />
    </Stack>
  );
}
