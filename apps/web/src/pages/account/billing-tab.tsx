import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import {
  type BillingOverview,
  type Invoice,
  invoiceStatusShown,
  type PlanKey,
  type Usage,
} from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  invoiceTable,
  useBilling,
  useCancelSubscription,
  useCheckout,
  usePortal,
} from '../../api/billing.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useFormat } from '../../components/format.ts';
import { InvoiceActions } from '../billing/invoice-actions.tsx';
import { savingPercent, useMoney } from '../billing/money.ts';

const date = (lang: string, iso: string) =>
  new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(new Date(iso));

function UsageBar({ usage }: { usage: Usage }) {
  const { t } = useTranslation();
  const format = useFormat();
  const show = (n: number) => (usage.limit === 'storageBytes' ? format.size(n) : format.number(n));
  const share = usage.max ? Math.min(100, (usage.used / usage.max) * 100) : 0;
  return (
    <Box data-testid={`usage-${usage.limit}`}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 0.5 }}>
        <Typography variant="body2">{t(`billing.limits.${usage.limit}`)}</Typography>
        <Typography variant="body2" color="text.secondary">
          {usage.max === null
            ? t('billing.usage.unlimited', { used: show(usage.used) })
            : t('billing.usage.of', { used: show(usage.used), max: show(usage.max) })}
        </Typography>
      </Stack>
      <LinearProgress
        variant="determinate"
        value={share}
        color={share >= 100 ? 'error' : share >= 80 ? 'warning' : 'primary'}
        aria-label={t(`billing.limits.${usage.limit}`)}
      />
    </Box>
  );
}

function CurrentPlan({ data }: { data: BillingOverview }) {
  const { t, i18n } = useTranslation();
  const [cancelling, setCancelling] = useState(false);
  const cancel = useCancelSubscription({ onSettled: () => setCancelling(false) });
  const portal = usePortal({ onSuccess: ({ url }) => window.location.assign(url) });
  const sub = data.subscription;
  if (!sub) return <Alert severity="info">{t('billing.current.none')}</Alert>;
  const paid = sub.source === 'stripe' && !sub.ended;
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="h5" component="h2" data-testid="current-plan">
              {t(`plans.${sub.plan}`)}
            </Typography>
            <Chip
              size="small"
              label={t(`plans.status.${sub.status}`)}
              color={sub.ended ? 'error' : sub.status === 'past_due' ? 'warning' : 'success'}
            />
          </Stack>
          <Typography>
            {t('billing.current.activeUntil', { date: date(i18n.language, sub.endsAt) })} ·{' '}
            {t('billing.current.daysRemaining', { count: sub.daysRemaining })}
          </Typography>
          {sub.source === 'manual' && (
            <Typography color="text.secondary">{t('billing.current.byOperator')}</Typography>
          )}
          {sub.cancelAtPeriodEnd && !sub.ended && (
            <Alert severity="info">
              {t('billing.current.cancelsAt', { date: date(i18n.language, sub.endsAt) })}
            </Alert>
          )}
          {sub.renewalDue && data.paymentsEnabled && (
            <Alert severity={sub.ended ? 'error' : 'warning'}>
              {sub.ended
                ? t('billing.banner.ended')
                : t('billing.banner.renewal', { count: sub.daysRemaining })}
            </Alert>
          )}
          {paid && data.paymentsEnabled && (
            <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap' }}>
              <Button variant="outlined" disabled={portal.isPending} onClick={() => portal.mutate(null)}>
                {t('billing.actions.portal')}
              </Button>
              {!sub.cancelAtPeriodEnd && (
                <Button variant="outlined" color="error" onClick={() => setCancelling(true)}>
                  {t('billing.actions.cancel')}
                </Button>
              )}
            </Stack>
          )}
        </Stack>
      </CardContent>
      <ConfirmDialog
        open={cancelling}
        title={t('billing.actions.cancelTitle')}
        text={t('billing.actions.cancelText', { date: date(i18n.language, sub.endsAt) })}
        confirmLabel={t('billing.actions.cancel')}
        pending={cancel.isPending}
        onConfirm={() => cancel.mutate(null)}
        onClose={() => setCancelling(false)}
      />
    </Card>
  );
}

function PlanChoice({ data }: { data: BillingOverview }) {
  const { t } = useTranslation();
  const money = useMoney();
  const checkout = useCheckout({ onSuccess: ({ url }) => window.location.assign(url) });
  const forSale = data.plans.filter((p) => p.forSale);
  if (!data.paymentsEnabled) return <Alert severity="info">{t('billing.disabled')}</Alert>;
  if (forSale.length === 0) return null;
  const current = data.subscription && !data.subscription.ended ? data.subscription.plan : null;
  return (
    <Stack spacing={2}>
      <Typography variant="h6" component="h2">
        {t('billing.offer.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
        {forSale.map((plan) => {
          const saving = savingPercent(plan, data.plans);
          const isCurrent = plan.key === current && data.subscription?.source === 'stripe';
          return (
            <Card key={plan.key} variant="outlined" data-testid={`plan-${plan.key}`}>
              <CardContent>
                <Stack spacing={1.5}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Typography variant="h6" component="h3">
                      {t(`plans.${plan.key}`)}
                    </Typography>
                    {saving && (
                      <Chip
                        size="small"
                        color="success"
                        label={t('billing.offer.save', { percent: saving })}
                      />
                    )}
                  </Stack>
                  <Typography>
                    {plan.intervalMonths === 1
                      ? t('billing.offer.perMonth', { price: money(plan.priceCents ?? 0, plan.currency) })
                      : t('billing.offer.perMonths', {
                          price: money(plan.priceCents ?? 0, plan.currency),
                          count: plan.intervalMonths ?? 1,
                        })}
                  </Typography>
                  <Button
                    variant={isCurrent ? 'outlined' : 'contained'}
                    disabled={isCurrent || checkout.isPending}
                    onClick={() => checkout.mutate(plan.key as PlanKey)}
                  >
                    {isCurrent ? t('billing.offer.current') : t('billing.offer.choose')}
                  </Button>
                </Stack>
              </CardContent>
            </Card>
          );
        })}
      </Box>
    </Stack>
  );
}

function History() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const columns: Column<Invoice>[] = [
    {
      id: 'number',
      label: t('billing.history.number'),
      render: (i) => i.number ?? '—',
      csv: (i) => i.number,
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
      csv: (i) => t(`billing.invoiceStatus.${invoiceStatusShown(i)}`),
    },
    {
      id: 'issued',
      label: t('billing.history.issued'),
      render: (i) => date(i18n.language, i.issuedAt),
      csv: (i) => i.issuedAt,
    },
    {
      id: 'actions',
      label: t('billing.history.actions'),
      render: (i) => <InvoiceActions id={i.id} previewPath={`/invoice/preview/${i.id}`} />,
    },
  ];
  return (
    <Stack spacing={2}>
      <Typography variant="h6" component="h2">
        {t('billing.history.title')}
      </Typography>
      <DataTable
        queryKey={invoiceTable.queryKey}
        fetchPage={invoiceTable.fetchPage}
        columns={columns}
        rowKey={(i) => i.id}
        emptyText={t('billing.history.empty')}
        caption={t('billing.history.title')}
        csvName="invoices"
      />
    </Stack>
  );
}

/** "Billing and plans": the current plan with its days, usage against every limit, plans to buy, the invoices. */
export function BillingTab() {
  const { t } = useTranslation();
  const query = useBilling();
  if (query.isError) return <Alert severity="error">{t('errors.INTERNAL')}</Alert>;
  if (!query.data) return <LinearProgress aria-label={t('billing.tab')} />;
  const data = query.data;
  return (
    <Stack spacing={4}>
      <CurrentPlan data={data} />
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {t('billing.usage.title')}
        </Typography>
        {data.usage.map((u) => (
          <UsageBar key={u.limit} usage={u} />
        ))}
      </Stack>
      <PlanChoice data={data} />
      <History />
    </Stack>
  );
}
