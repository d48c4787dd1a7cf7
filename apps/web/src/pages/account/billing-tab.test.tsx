import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type BillingOverview, billingContracts, type Invoice } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { BillingTab } from './billing-tab.tsx';

afterEach(() => vi.unstubAllGlobals());

const limits = {
  storageBytes: null,
  divisions: null,
  employees: null,
  smtpSettings: 1,
  emailSettings: 1,
  questionsPerMonth: null,
};

const overview = (paymentsEnabled: boolean): BillingOverview => ({
  paymentsEnabled,
  subscription: {
    plan: 'trial',
    status: 'trial',
    source: 'trial',
    startsAt: '2026-11-01T00:00:00.000Z',
    endsAt: '2026-11-15T00:00:00.000Z',
    daysRemaining: 5,
    cancelAtPeriodEnd: false,
    renewalDue: true,
    ended: false,
  },
  usage: [
    { limit: 'storageBytes', used: 1024 * 1024, max: 10 * 1024 * 1024 },
    { limit: 'employees', used: 2, max: 2 },
  ],
  plans: [
    { key: 'trial', intervalMonths: null, priceCents: null, currency: 'eur', forSale: false, limits },
    {
      key: 'monthly',
      intervalMonths: 1,
      priceCents: 4900,
      currency: 'eur',
      forSale: paymentsEnabled,
      limits,
    },
    {
      key: 'halfYearly',
      intervalMonths: 6,
      priceCents: 25578,
      currency: 'eur',
      forSale: paymentsEnabled,
      limits,
    },
  ],
});

function stubServer(paymentsEnabled: boolean, invoices: Invoice[] = []) {
  return fakeApi()
    .on(billingContracts.overview, () => overview(paymentsEnabled))
    .on(billingContracts.invoices, () => page(invoices))
    .on(billingContracts.checkout, () => ({ url: '/checkout-test' }));
}

describe('the billing tab', () => {
  it('shows the plan with its days, a bar per limit, and the half-yearly saving computed from the prices', async () => {
    signedInAs('DataManager');
    stubServer(true);
    renderWithApp(<BillingTab />);
    expect((await screen.findByTestId('current-plan')).textContent).toBe('Trial');
    expect(screen.getAllByText(/Days remaining: 5/).length).toBeGreaterThan(0);
    expect(within(screen.getByTestId('usage-employees')).getByText('2 of 2')).toBeTruthy();
    expect(within(screen.getByTestId('plan-halfYearly')).getByText('Save 13%')).toBeTruthy();
    expect(within(screen.getByTestId('plan-monthly')).queryByText(/Save/)).toBeNull();
  });

  it('opens checkout for the chosen plan', async () => {
    signedInAs('DataManager');
    const api = stubServer(true);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderWithApp(<BillingTab />);
    fireEvent.click(
      within(await screen.findByTestId('plan-monthly')).getByRole('button', { name: 'Choose' }),
    );
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/checkout-test'));
    expect(api.calls(billingContracts.checkout).map((call) => call.body)).toEqual([{ plan: 'monthly' }]);
  });

  it('asks for no payment when billing is switched off', async () => {
    signedInAs('DataManager');
    stubServer(false);
    renderWithApp(<BillingTab />);
    expect(await screen.findByText(/the operator assigns plans/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Choose' })).toBeNull();
  });

  it('shows a paid invoice of 0 (a trial carried over to Stripe) as nothing due, not as paid', async () => {
    signedInAs('DataManager');
    const invoice = (number: string, totalCents: number): Invoice => ({
      id: crypto.randomUUID(),
      companyId: crypto.randomUUID(),
      companyName: 'Müller Haustechnik GmbH',
      number,
      plan: 'monthly',
      currency: 'eur',
      totalCents,
      paidCents: totalCents,
      status: 'paid',
      issuedAt: '2026-11-01T00:00:00.000Z',
      periodStart: null,
      periodEnd: null,
      stripeInvoiceId: `in_${number}`,
    });
    stubServer(true, [invoice('WW-0001', 0), invoice('WW-0002', 4900)]);
    renderWithApp(<BillingTab />);
    const trialRow = (await screen.findByText('WW-0001')).closest('tr')!;
    expect(within(trialRow).getByText('Nothing due')).toBeTruthy();
    expect(within(trialRow).queryByText('Paid')).toBeNull();
    const paidRow = screen.getByText('WW-0002').closest('tr')!;
    expect(within(paidRow).getByText('Paid')).toBeTruthy();
  });
});
