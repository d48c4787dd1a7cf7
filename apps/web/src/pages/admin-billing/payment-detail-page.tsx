import {
  Alert,
  Button,
  Card,
  CardContent,
  LinearProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { invoiceStatusShown, PLAN_KEYS, type PlanKey } from '@werkwissen/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPath, Link as RouterLink, useLocation } from 'react-router';
import { useAssignPlan, usePayment } from '../../api/billing.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useMoney } from '../billing/money.ts';

/**
 * `/admin/payments/details/:id`: one company's plan, its plans over time, every Stripe event with its ids, its
 * invoices; the administrator assigns a plan by hand (free or extended), noted in the activity log.
 */
export default function PaymentDetailPage() {
  const { t, i18n } = useTranslation();
  // Pages are chosen from the route manifest, not by nested routes: the id is read from the address.
  const id = matchPath('/admin/payments/details/:id', useLocation().pathname)?.params.id ?? '';
  const { ability } = useAuth();
  const money = useMoney();
  const query = usePayment(id);
  const [assigning, setAssigning] = useState(false);
  const [plan, setPlan] = useState<PlanKey>('monthly');
  const [endsOn, setEndsOn] = useState('');
  const assign = useAssignPlan({ onSuccess: () => setAssigning(false) });
  const date = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
          new Date(iso),
        )
      : '—';
  if (query.isError) return <Alert severity="error">{t('errors.NOT_FOUND')}</Alert>;
  if (!query.data) return <LinearProgress aria-label={t('admin.payments.detailTitle')} />;
  const detail = query.data;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!endsOn) return;
    assign.mutate({ companyId: id, plan, endsAt: new Date(`${endsOn}T23:59:59`).toISOString() });
  };
  const table = (head: string[], rows: string[][], label: string) => (
    <TableContainer>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {head.map((h) => (
              <TableCell key={h}>{h}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.join('|')}>
              {r.map((c, i) => (
                <TableCell key={`${head[i]}`} sx={{ wordBreak: 'break-all' }}>
                  {c}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
  return (
    <Stack spacing={4}>
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
      >
        <PageHeader title={detail.company.name ?? t('admin.companies.unnamed')} />
        {ability.can('manage', 'Subscription') && (
          <Button variant="contained" onClick={() => setAssigning(true)}>
            {t('admin.payments.assign')}
          </Button>
        )}
      </Stack>
      <Card variant="outlined">
        <CardContent>
          <Stack spacing={1}>
            <Typography>
              {detail.subscription
                ? `${t(`plans.${detail.subscription.plan}`)} · ${t(`plans.status.${detail.subscription.status}`)} · ${t(
                    'billing.current.activeUntil',
                    { date: date(detail.subscription.endsAt) },
                  )}`
                : t('billing.current.none')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('admin.payments.stripeIds')}:{' '}
              {[detail.stripeCustomerId, detail.stripeSubscriptionId].filter(Boolean).join(' · ') || '—'}
            </Typography>
          </Stack>
        </CardContent>
      </Card>
      <Typography variant="h6" component="h2">
        {t('admin.payments.history')}
      </Typography>
      {table(
        [
          t('admin.payments.plan'),
          t('admin.payments.status'),
          t('admin.payments.source'),
          t('admin.payments.startsAt'),
          t('admin.payments.endsAt'),
        ],
        detail.history.map((h) => [
          t(`plans.${h.plan}`),
          t(`plans.status.${h.status}`),
          t(`admin.payments.sources.${h.source}`),
          date(h.startsAt),
          date(h.endsAt),
        ]),
        t('admin.payments.history'),
      )}
      <Typography variant="h6" component="h2">
        {t('admin.payments.events')}
      </Typography>
      {detail.events.length === 0 ? (
        <Typography color="text.secondary">{t('admin.payments.noEvents')}</Typography>
      ) : (
        table(
          [
            t('admin.payments.eventType'),
            t('admin.payments.eventId'),
            t('admin.payments.objectId'),
            t('admin.payments.received'),
            t('admin.payments.processed'),
          ],
          detail.events.map((e) => [
            e.type,
            e.id,
            e.stripeObjectId ?? '—',
            date(e.receivedAt),
            date(e.processedAt),
          ]),
          t('admin.payments.events'),
        )
      )}
      <Typography variant="h6" component="h2">
        {t('admin.invoices.title')}
      </Typography>
      {detail.invoices.length === 0 ? (
        <Typography color="text.secondary">{t('billing.history.empty')}</Typography>
      ) : (
        <Stack spacing={1}>
          {detail.invoices.map((i) => (
            <Button
              key={i.id}
              component={RouterLink}
              to={`/admin/invoice/preview/${i.id}`}
              sx={{ alignSelf: 'start' }}
            >
              {`${i.number ?? i.stripeInvoiceId} · ${money(i.totalCents, i.currency)} · ${t(`billing.invoiceStatus.${invoiceStatusShown(i)}`)}`}
            </Button>
          ))}
        </Stack>
      )}
      <FormDialog
        open={assigning}
        onClose={() => setAssigning(false)}
        title={t('admin.payments.assign')}
        intro={t('admin.payments.assignIntro')}
        formId="assign-plan"
        submitLabel={t('admin.payments.assign')}
        pending={assign.isPending}
      >
        <Stack component="form" id="assign-plan" onSubmit={submit} spacing={2} sx={{ mt: 1 }}>
          <TextField
            select
            label={t('admin.payments.plan')}
            value={plan}
            onChange={(e) => setPlan(e.target.value as PlanKey)}
          >
            {PLAN_KEYS.map((k) => (
              <MenuItem key={k} value={k}>
                {t(`plans.${k}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            type="date"
            required
            label={t('admin.payments.assignEndsAt')}
            value={endsOn}
            onChange={(e) => setEndsOn(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Stack>
      </FormDialog>
    </Stack>
  );
}
