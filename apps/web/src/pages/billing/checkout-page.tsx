import { Alert, Button, Card, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { PLAN_KEYS, type PlanKey } from '@werkwissen/shared';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useBilling, useCheckout } from '../../api/billing.ts';
import { PageHeader } from '../../components/page-header.tsx';

/**
 * `/checkout`: with `?plan=` it sends the browser to Stripe Checkout; Stripe sends it back here with `result=success`
 * (the plan changes once Stripe's webhook is processed, so the page waits for it) or `result=cancel`.
 */
export default function CheckoutPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const result = params.get('result');
  const plan = params.get('plan');
  const checkout = useCheckout({ onSuccess: ({ url }) => window.location.assign(url) });
  const started = useRef(false);
  const billing = useBilling(result === 'success');
  const confirmed = result === 'success' && billing.data?.subscription?.source === 'stripe';

  useEffect(() => {
    if (started.current || result || !plan || !(PLAN_KEYS as readonly string[]).includes(plan)) return;
    started.current = true;
    checkout.mutate(plan as PlanKey);
  }, [plan, result, checkout]);

  return (
    <Stack spacing={4} sx={{ maxWidth: 640 }}>
      <PageHeader title={t('billing.checkout.title')} />
      <Card variant="outlined">
        <CardContent>
          <Stack spacing={2}>
            {result === 'success' && (
              <>
                <Alert severity="success" data-testid="checkout-success">
                  {t('billing.checkout.success')}
                </Alert>
                {confirmed ? (
                  <Typography data-testid="checkout-confirmed">
                    {t('billing.checkout.confirmed', {
                      plan: t(`plans.${billing.data!.subscription!.plan}`),
                    })}
                  </Typography>
                ) : (
                  <LinearProgress aria-label={t('billing.checkout.waiting')} />
                )}
              </>
            )}
            {result === 'cancel' && <Alert severity="info">{t('billing.checkout.cancel')}</Alert>}
            {!result && !checkout.isError && (
              <>
                <Typography>{t('billing.checkout.redirecting')}</Typography>
                <LinearProgress aria-label={t('billing.checkout.redirecting')} />
              </>
            )}
            <Button
              component={RouterLink}
              to="/account-settings/billing"
              variant="outlined"
              sx={{ alignSelf: 'start' }}
            >
              {t('billing.checkout.back')}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}
