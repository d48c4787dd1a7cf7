import { Alert, Box, Button, Card, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { IconDownload } from '@tabler/icons-react';
import { invoiceStatusShown } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { matchPath, useLocation } from 'react-router';
import { invoicePdfUrl, useInvoice } from '../../api/billing.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { useMoney } from './money.ts';

/** `/invoice/preview/:id` and `/admin/invoice/preview/:id`: one invoice as it is printed, with its PDF. */
export default function InvoicePreviewPage() {
  const { t, i18n } = useTranslation();
  // Pages are chosen from the route manifest, not by nested routes: the id is read from the address.
  const { pathname } = useLocation();
  const id =
    (matchPath('/invoice/preview/:id', pathname) ?? matchPath('/admin/invoice/preview/:id', pathname))?.params
      .id ?? '';
  const money = useMoney();
  const query = useInvoice(id);
  if (query.isError) return <Alert severity="error">{t('errors.NOT_FOUND')}</Alert>;
  if (!query.data) return <LinearProgress aria-label={t('billing.invoice.title')} />;
  const invoice = query.data;
  const date = (iso: string | null) =>
    iso ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(iso)) : '—';
  const rows: [string, string][] = [
    [t('billing.invoice.customer'), invoice.companyName ?? '—'],
    [t('billing.invoice.issued'), date(invoice.issuedAt)],
    [t('billing.invoice.period'), `${date(invoice.periodStart)} – ${date(invoice.periodEnd)}`],
    [t('billing.invoice.plan'), invoice.plan ? t(`plans.${invoice.plan}`) : '—'],
    [t('billing.invoice.status'), t(`billing.invoiceStatus.${invoiceStatusShown(invoice)}`)],
    [t('billing.invoice.total'), money(invoice.totalCents, invoice.currency)],
    [t('billing.invoice.paid'), money(invoice.paidCents, invoice.currency)],
    [t('billing.invoice.due'), money(Math.max(0, invoice.totalCents - invoice.paidCents), invoice.currency)],
  ];
  return (
    <Stack spacing={4} sx={{ maxWidth: 720 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <PageHeader
          title={
            <>
              {t('billing.invoice.title')} {invoice.number ?? ''}
            </>
          }
        />
        <Button
          variant="contained"
          startIcon={<IconDownload size={18} />}
          component="a"
          href={invoicePdfUrl(invoice.id)}
          download
        >
          {t('billing.invoice.download')}
        </Button>
      </Stack>
      <Card variant="outlined">
        <CardContent>
          <Box
            component="dl"
            sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 4, rowGap: 1.5, m: 0 }}
          >
            {rows.map(([label, value]) => (
              <Box key={label} sx={{ display: 'contents' }}>
                <Typography component="dt" sx={{ fontWeight: 600 }}>
                  {label}
                </Typography>
                <Typography component="dd" sx={{ m: 0 }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
            {t('billing.invoice.reference', { id: invoice.stripeInvoiceId })}
          </Typography>
        </CardContent>
      </Card>
    </Stack>
  );
}
