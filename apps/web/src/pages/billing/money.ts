import type { Plan } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';

/** Amounts in cents as the interface language writes money ("49,00 €"). */
export function useMoney() {
  const { i18n } = useTranslation();
  return (cents: number, currency: string) =>
    new Intl.NumberFormat(i18n.language, { style: 'currency', currency: currency.toUpperCase() }).format(
      cents / 100,
    );
}

/**
 * What a plan of several months saves against paying its months one by one at the monthly plan's price, in whole
 * percent (the half-yearly plan: 13); null when it saves nothing or there is nothing to compare.
 */
export function savingPercent(plan: Plan, plans: Plan[]): number | null {
  const monthly = plans.find((p) => p.key === 'monthly');
  if (!plan.intervalMonths || plan.intervalMonths < 2 || !plan.priceCents || !monthly?.priceCents)
    return null;
  const saving = Math.round((1 - plan.priceCents / (plan.intervalMonths * monthly.priceCents)) * 100);
  return saving > 0 ? saving : null;
}
