import type { Plan } from '@werkwissen/shared';
import { describe, expect, it } from 'vitest';
import { savingPercent } from './money.ts';

const limits = {
  storageBytes: null,
  divisions: null,
  employees: null,
  smtpSettings: null,
  emailSettings: null,
  questionsPerMonth: null,
};
const plan = (key: Plan['key'], intervalMonths: number | null, priceCents: number | null): Plan => ({
  key,
  intervalMonths,
  priceCents,
  currency: 'eur',
  forSale: true,
  limits,
});

describe('savingPercent', () => {
  const monthly = plan('monthly', 1, 4900);
  it('computes the half-yearly saving from the prices', () => {
    expect(savingPercent(plan('halfYearly', 6, 25578), [monthly])).toBe(13);
  });
  it('says nothing for monthly plans, free plans, or a price that saves nothing', () => {
    expect(savingPercent(monthly, [monthly])).toBeNull();
    expect(savingPercent(plan('trial', null, null), [monthly])).toBeNull();
    expect(savingPercent(plan('halfYearly', 6, 29400), [monthly])).toBeNull();
    expect(savingPercent(plan('halfYearly', 6, 25578), [])).toBeNull();
  });
});
