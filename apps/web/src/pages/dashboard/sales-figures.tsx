import { Grid } from '@mui/material';
import type { Dashboard } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { FigureCard } from './figure-card.tsx';

/** The dashboard's offers and invoices: open offers, unpaid invoices and the overdue amount (gross). */
export function SalesFigures({ sales }: { sales: NonNullable<Dashboard['sales']> }) {
  const { t, i18n } = useTranslation();
  const money = (cents: number) =>
    new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'EUR' }).format(cents / 100);
  return (
    <>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FigureCard
          testId="figure-open-offers"
          label={t('handwerk.dashboard.openOffers')}
          value={money(sales.openOffersCents)}
          note={t('handwerk.dashboard.documents', { count: sales.openOffers })}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FigureCard
          testId="figure-unpaid-invoices"
          label={t('handwerk.dashboard.unpaidInvoices')}
          value={money(sales.unpaidCents)}
          note={t('handwerk.dashboard.documents', { count: sales.unpaidInvoices })}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FigureCard
          testId="figure-overdue"
          label={t('handwerk.dashboard.overdue')}
          value={money(sales.overdueCents)}
          note={t('handwerk.dashboard.documents', { count: sales.overdueInvoices })}
        />
      </Grid>
    </>
  );
}
