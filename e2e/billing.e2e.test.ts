import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripe } from '../apps/server/test/support/fake-stripe.ts';
import { ADMIN, signedInDataManager, type TestServer } from '../apps/server/test/support/test-server.ts';
import { artifactPath, openBrowser } from './support/browser.ts';
import { passSecondFactorInBrowser } from './support/second-factor.ts';
import { startAppServer, text } from './support/server.ts';

const PRICES = { monthly: 'price_monthly', halfYearly: 'price_half_yearly' };
const fake = new FakeStripe();
let t: TestServer;

beforeAll(async () => {
  fake.prices.set(PRICES.monthly, { unitAmount: 4900, currency: 'eur', intervalMonths: 1 });
  fake.prices.set(PRICES.halfYearly, { unitAmount: 25578, currency: 'eur', intervalMonths: 6 });
  await fake.start();
  // The trial allows one employee (the system setting); the monthly plan a hundred.
  t = await startAppServer({ ...fake.env(PRICES), EMPLOYEES_LIMIT: '1' });
  fake.webhookUrl = `${t.url}/api/v1/webhooks/stripe`;
});
afterAll(async () => {
  await t?.close();
  await fake.stop();
});

const employee = (n: number) => ({
  email: `mitarbeiter${n}-${Date.now()}@firma.example`,
  firstName: 'Kai',
  lastName: 'Berg',
  language: 'de',
  divisionIds: [],
});

describe('billing in the browser', () => {
  it('a data manager upgrades from the trial through checkout and sees the plan, the invoice and the new limit; the operator sees the payment', async () => {
    // Registered in German (the default of handwerk mode): the screens answer in German.
    const dm = await signedInDataManager(t);
    expect((await dm.client.post('/employees', employee(1))).status).toBe(201);
    const refused = await dm.client.post('/employees', employee(2));
    expect(refused.body.error.code).toBe('PLAN_LIMIT_REACHED');

    const browser = await openBrowser();
    const { page } = browser;
    try {
      await page.goto(`${t.url}/login`);
      await page.locator('input[name=email]').fill(dm.email);
      await page.locator('input[name=password]').fill(dm.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL(`${t.url}/dashboard`);

      // The employees page says the plan is full and does not offer to add one.
      const addEmployee = page.getByRole('button', { name: text('de', 'pages.employees.add') });
      await page.goto(`${t.url}/employee-add`);
      await page.getByTestId('plan-limit-note').waitFor();
      expect(await addEmployee.isDisabled()).toBe(true);

      await page.goto(`${t.url}/account-settings/billing`);
      await expect.poll(() => page.getByTestId('current-plan').textContent()).toBe(text('de', 'plans.trial'));
      const saving = page
        .getByTestId('plan-halfYearly')
        .getByText(text('de', 'billing.offer.save', { percent: '13' }));
      await saving.waitFor();
      await page
        .getByTestId('plan-monthly')
        .getByRole('button', { name: text('de', 'billing.offer.choose') })
        .click();

      // Stripe's hosted page (the double's): pay, and Stripe sends the browser back.
      await page.waitForURL(/\/checkout\/cs_/);
      await page.locator('#pay').click();
      await page.waitForURL(/\/checkout\?result=success/);
      await page.getByTestId('checkout-confirmed').waitFor();

      await page.goto(`${t.url}/account-settings/billing`);
      await expect
        .poll(() => page.getByTestId('current-plan').textContent())
        .toBe(text('de', 'plans.monthly'));
      await page.getByRole('cell', { name: 'WW-0001' }).waitFor();
      await page.screenshot({ path: artifactPath('billing-after-checkout.png'), fullPage: true });
      // On the monthly plan there is room again.
      await page.goto(`${t.url}/employee-add`);
      await expect.poll(() => addEmployee.isEnabled()).toBe(true);
      expect(await page.getByTestId('plan-limit-note').count()).toBe(0);
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
    expect((await dm.client.post('/employees', employee(3))).status).toBe(201);

    // The operator (the seeded administrator speaks German) sees the payment: the plan with its Stripe ids, the
    // events, and the invoice.
    const company = (await dm.client.get('/auth/me')).body.userData.companyName as string;
    const admin = await openBrowser();
    try {
      const op = admin.page;
      await op.goto(`${t.url}/admin/auth/login`);
      await op.locator('input[name=email]').fill(ADMIN.email);
      await op.locator('input[name=password]').fill(ADMIN.password);
      await op.locator('form button[type=submit]').click();
      await passSecondFactorInBrowser(op, t, ADMIN.email);
      await op.waitForURL(`${t.url}/admin/dashboard`);
      await op.goto(`${t.url}/admin/payments`);
      await op.getByRole('heading', { name: text('de', 'admin.payments.title') }).waitFor();
      const row = op.getByRole('row').filter({ hasText: company });
      await row.getByText(text('de', 'plans.monthly')).waitFor();
      await row.getByText(/cus_.*sub_/).waitFor();
      await row.getByRole('link', { name: company }).click();
      await op.waitForURL(/\/admin\/payments\/details\//);
      await op.getByRole('cell', { name: 'invoice.paid', exact: true }).first().waitFor();
      await op
        .getByText(/WW-0001/)
        .first()
        .waitFor();
      await op.goto(`${t.url}/admin/invoice/list`);
      await op.getByRole('cell', { name: 'WW-0001' }).waitFor();
      // The invoice opens as its preview, in the back office as for the customer.
      await op
        .getByRole('row')
        .filter({ hasText: 'WW-0001' })
        .getByRole('link', { name: text('de', 'billing.history.view') })
        .click();
      await op.waitForURL(/\/admin\/invoice\/preview\//);
      await op.getByRole('heading', { name: `${text('de', 'billing.invoice.title')} WW-0001` }).waitFor();
      await op.getByRole('definition').filter({ hasText: company }).waitFor();
      await op.screenshot({ path: artifactPath('billing-operator.png'), fullPage: true });
      expect(admin.problems).toEqual([]);
    } finally {
      await admin.close();
    }
  }, 180_000);
});
