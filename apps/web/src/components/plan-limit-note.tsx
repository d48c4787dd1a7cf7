import { Alert, Button } from '@mui/material';
import type { PlanLimit } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { usePlanLimit } from '../api/billing.ts';
import { useAuth } from '../auth/auth-context.tsx';

/**
 * A limited resource's room on the company's plan, for the page that adds it: `full` disables the add button, and
 * `note` says why, with the way to the plans for whoever may change the plan.
 */
export function usePlanRoom(limit: PlanLimit) {
  const { t } = useTranslation();
  const { ability } = useAuth();
  const { full, max } = usePlanLimit(limit, ability.can('read', 'Subscription'));
  const note = full ? (
    <Alert
      severity="info"
      data-testid="plan-limit-note"
      action={
        ability.can('update', 'Subscription') ? (
          <Button color="inherit" size="small" component={RouterLink} to="/account-settings/billing">
            {t('billing.limitNote.action')}
          </Button>
        ) : undefined
      }
    >
      {t('billing.limitNote.text', { max, limitName: t(`billing.limits.${limit}`) })}
    </Alert>
  ) : null;
  return { full, note };
}
