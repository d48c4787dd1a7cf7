import { Alert, Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useBillingStatus } from '../api/billing.ts';
import { useAuth } from '../auth/auth-context.tsx';

/**
 * On every page of a company's users: the plan needs renewal (from seven days before its end, past due, or ended),
 * with the days left; whoever may manage the plan gets the way to renew it.
 */
export function RenewalBanner() {
  const { t } = useTranslation();
  const { session, ability } = useAuth();
  const inCompany = Boolean(session && ['DataManager', 'Employee'].includes(session.userRole));
  const status = useBillingStatus(inCompany);
  const sub = status.data?.subscription;
  if (!inCompany || !sub?.renewalDue) return null;
  const canRenew = ability.can('update', 'Subscription') && status.data?.paymentsEnabled;
  const text = sub.ended
    ? t('billing.banner.ended')
    : sub.status === 'past_due'
      ? t('billing.banner.pastDue')
      : t('billing.banner.renewal', { count: sub.daysRemaining });
  return (
    <Alert
      severity={sub.ended ? 'error' : 'warning'}
      square
      role="status"
      data-testid="renewal-banner"
      action={
        canRenew ? (
          <Button color="inherit" size="small" component={RouterLink} to="/account-settings/billing">
            {t('billing.banner.action')}
          </Button>
        ) : undefined
      }
    >
      {text}
    </Alert>
  );
}
