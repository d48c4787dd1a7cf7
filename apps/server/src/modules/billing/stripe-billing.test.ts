import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/support/api-client.ts';
import { signedInAs } from '../../../test/support/factories.ts';
import { FakeStripe } from '../../../test/support/fake-stripe.ts';
import { startTestServer, type TestServer } from '../../../test/support/test-server.ts';
import { emailOutbox, stripeEvents, subscriptions } from '../../db/schema/index.ts';

const PRICES = { monthly: 'price_monthly', halfYearly: 'price_half_yearly' };
const fake = new FakeStripe();
let t: TestServer;

const db = () => t.server.ctx.db;

/** Waits until the worker has processed every stored event (the webhook only stores and queues them). */
async function settled() {
  for (let i = 0; i < 400; i++) {
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from stripe_events where processed_at is null`,
    );
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('stripe events were not processed');
}

async function billing(client: ApiClient) {
  const res = await client.get('/billing');
  expect(res.status).toBe(200);
  return res.body;
}

async function mailsOf(companyId: string, template: string) {
  return db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.template, template)));
}

/** A data manager whose sign-up trial has only a day left (so checkout starts the paid plan at once). */
async function manager(options: { trialDays?: number } = {}) {
  const dm = await signedInAs(t, 'DataManager');
  const now = Date.now();
  await db()
    .insert(subscriptions)
    .values({
      companyId: dm.companyId!,
      plan: 'trial',
      status: 'trial',
      source: 'trial',
      startsAt: new Date(now),
      endsAt: new Date(now + (options.trialDays ?? 1) * 86_400_000),
    });
  return dm;
}

/** Buys a plan through the fake's checkout; answers the Stripe subscription. */
async function buy(client: ApiClient, plan: 'monthly' | 'halfYearly' = 'monthly') {
  const res = await client.post('/billing/checkout', { plan });
  expect(res.status).toBe(200);
  const sessionId = new URL(res.body.url).pathname.split('/').pop()!;
  const sub = await fake.pay(sessionId);
  await settled();
  return { sub, sessionId, id: sub.id as string };
}

beforeAll(async () => {
  fake.prices.set(PRICES.monthly, { unitAmount: 4900, currency: 'eur', intervalMonths: 1 });
  fake.prices.set(PRICES.halfYearly, { unitAmount: 25578, currency: 'eur', intervalMonths: 6 });
  await fake.start();
  t = await startTestServer({ smtp: false, env: fake.env(PRICES) });
  fake.webhookUrl = `${t.url}/api/v1/webhooks/stripe`;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake.stop();
});
beforeEach(() => {
  fake.requests.length = 0;
});

describe('checkout', () => {
  it('opens a Checkout session for the company and the plan, and the paid plan becomes current', async () => {
    const dm = await manager();
    const res = await dm.client.post('/billing/checkout', { plan: 'monthly' });
    expect(res.status).toBe(200);
    const request = fake.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(request.stripeVersion).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(request.idempotencyKey).toBeTruthy();
    expect(request.params).toMatchObject({
      mode: 'subscription',
      client_reference_id: dm.companyId,
      customer_email: dm.user.email,
      line_items: [{ price: PRICES.monthly, quantity: '1' }],
      subscription_data: { metadata: { companyId: dm.companyId, plan: 'monthly' } },
      locale: 'en',
      tax_id_collection: { enabled: 'true' },
      billing_address_collection: 'required',
    });
    expect(String(request.params.success_url)).toContain('/checkout?result=success');
    expect(String(request.params.cancel_url)).toContain('/checkout?result=cancel');
    // A trial with a day left is not carried over: Stripe needs at least two days.
    expect((request.params.subscription_data as Record<string, unknown>).trial_end).toBeUndefined();

    await fake.pay(new URL(res.body.url).pathname.split('/').pop()!);
    await settled();
    const after = await billing(dm.client);
    expect(after.subscription).toMatchObject({
      plan: 'monthly',
      status: 'active',
      source: 'stripe',
      ended: false,
    });
    expect(after.subscription.daysRemaining).toBeGreaterThanOrEqual(28);
    const invoices = await dm.client.get('/billing/invoices');
    expect(invoices.body.items).toHaveLength(1);
    expect(invoices.body.items[0]).toMatchObject({
      status: 'paid',
      totalCents: 4900,
      paidCents: 4900,
      plan: 'monthly',
    });
    const pdf = await dm.client.get(`/billing/invoices/${invoices.body.items[0].id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('carries the rest of a sign-up trial over as a Stripe trial that ends by cancelling without a card', async () => {
    const dm = await manager({ trialDays: 10 });
    const { id } = await buy(dm.client, 'halfYearly');
    const request = fake.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(request.params.subscription_data).toMatchObject({
      trial_settings: { end_behavior: { missing_payment_method: 'cancel' } },
    });
    expect((await billing(dm.client)).subscription).toMatchObject({ plan: 'halfYearly', status: 'trial' });
    await fake.trialWillEnd(id);
    await settled();
    expect(await mailsOf(dm.companyId!, 'trialEnding')).toHaveLength(1);
    await fake.renew(id);
    await settled();
    expect((await billing(dm.client)).subscription).toMatchObject({ plan: 'halfYearly', status: 'active' });
  });

  it('refuses a plan that is not sold through Stripe', async () => {
    const dm = await manager();
    const res = await dm.client.post('/billing/checkout', { plan: 'handwerkPro' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('PLAN_NOT_FOR_SALE');
  });
});

describe('the lifecycle', () => {
  it('renews: a new period and a new paid invoice', async () => {
    const dm = await manager();
    const { id } = await buy(dm.client);
    const before = (await billing(dm.client)).subscription.endsAt;
    await fake.renew(id);
    await settled();
    const after = (await billing(dm.client)).subscription;
    expect(new Date(after.endsAt).getTime()).toBeGreaterThan(new Date(before).getTime());
    expect((await dm.client.get('/billing/invoices')).body.items).toHaveLength(2);
  });

  it('a failed payment makes it past_due with notices, and Stripe giving up expires it: read yes, upload and ask no', async () => {
    const dm = await manager();
    const division = await dm.client.post('/divisions', { name: 'Werkstatt' });
    const { id } = await buy(dm.client);
    await fake.failPayment(id, 1);
    await settled();
    expect((await billing(dm.client)).subscription).toMatchObject({ status: 'past_due', renewalDue: true });
    expect(await mailsOf(dm.companyId!, 'paymentFailed')).toHaveLength(1);
    await fake.failPayment(id, 2);
    await fake.failPayment(id, 3);
    await settled();
    expect(await mailsOf(dm.companyId!, 'paymentFailed')).toHaveLength(2);
    expect(await mailsOf(dm.companyId!, 'paymentFinalNotice')).toHaveLength(1);

    await fake.expire(id);
    await settled();
    const status = await dm.client.get('/billing/status');
    expect(status.body.subscription).toMatchObject({ status: 'expired', ended: true, renewalDue: true });
    const [expiry] = await mailsOf(dm.companyId!, 'planExpired');
    expect(expiry?.language).toBe('en');
    expect((await dm.client.get('/divisions')).status).toBe(200);
    const upload = await dm.client.upload(`/divisions/${division.body.id}/files`, [
      { name: 'a.txt', content: 'Text' },
    ]);
    expect(upload.status).toBe(403);
    expect(upload.body.error.code).toBe('PLAN_EXPIRED');
    const chat = await dm.client.post('/chats', { name: 'Fragen', divisionIds: [division.body.id] });
    const ask = await dm.client.post(`/chats/${chat.body.id}/messages`, { content: 'Wie entlüfte ich?' });
    expect(ask.status).toBe(403);
    expect(ask.body.error.code).toBe('PLAN_EXPIRED');
    // Paying again is open: a new checkout.
    expect((await dm.client.post('/billing/checkout', { plan: 'monthly' })).status).toBe(200);
  });

  it('cancels at the period end: the plan stays until then', async () => {
    const dm = await manager();
    const { id } = await buy(dm.client);
    const res = await dm.client.post('/billing/cancel');
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({
      status: 'cancelled',
      cancelAtPeriodEnd: true,
      ended: false,
    });
    expect(fake.subscription(id).cancel_at_period_end).toBe(true);
    await settled();
    expect((await billing(dm.client)).subscription.status).toBe('cancelled');
  });

  it('opens the customer portal of the paid subscription, and refuses one without', async () => {
    const dm = await manager();
    const none = await dm.client.post('/billing/portal');
    expect(none.body.error.code).toBe('NO_PAID_SUBSCRIPTION');
    await buy(dm.client);
    const portal = await dm.client.post('/billing/portal');
    expect(portal.status).toBe(200);
    expect(portal.body.url).toContain('/portal/cus_');
  });
});

describe('the webhook', () => {
  it('stores a replayed event once and does nothing the second time', async () => {
    const dm = await manager();
    await buy(dm.client);
    const paid = fake.sent.find((e) => e.type === 'invoice.paid')!;
    const res = await fake.deliver(paid);
    expect(res.status).toBe(200);
    const [row] = await db().select({ n: count() }).from(stripeEvents).where(eq(stripeEvents.id, paid.id));
    expect(row?.n).toBe(1);
    await settled();
    expect((await dm.client.get('/billing/invoices')).body.items).toHaveLength(1);
  });

  it('never lets an older event overwrite a newer state', async () => {
    const dm = await manager();
    const { id } = await buy(dm.client);
    // Stripe's state moves on without an event yet; an event older than the last one applied arrives.
    fake.subscription(id).status = 'past_due';
    const old = await fake.send(
      'customer.subscription.updated',
      fake.subscription(id),
      Math.floor(Date.now() / 1000) - 3600,
    );
    await settled();
    expect(
      (await db().select().from(stripeEvents).where(eq(stripeEvents.id, old.id)))[0]?.processedAt,
    ).toBeTruthy();
    expect((await billing(dm.client)).subscription.status).toBe('active');
    // The next newer event applies the fresh state.
    await fake.send('customer.subscription.updated', fake.subscription(id));
    await settled();
    expect((await billing(dm.client)).subscription.status).toBe('past_due');
  });

  it('refuses a wrong, missing or stale signature with 400 and stores nothing', async () => {
    const [before] = await db().select({ n: count() }).from(stripeEvents);
    const body = JSON.stringify({
      id: 'evt_forged',
      type: 'invoice.paid',
      created: 1,
      data: { object: { id: 'in_x' } },
    });
    const wrong = await fake.deliverRaw(body, fake.signature(body, 'whsec_not_the_secret'));
    const missing = await fake.deliverRaw(body, null);
    const stale = await fake.deliverRaw(
      body,
      fake.signature(body, fake.webhookSecret, Math.floor(Date.now() / 1000) - 600),
    );
    const altered = await fake.deliverRaw(`${body} `, fake.signature(body));
    for (const res of [wrong, missing, stale, altered]) {
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
        'WEBHOOK_SIGNATURE_INVALID',
      );
    }
    const [after] = await db().select({ n: count() }).from(stripeEvents);
    expect(after?.n).toBe(before?.n);
  });
});

describe('another company', () => {
  it("cannot reach a company's invoices or payments", async () => {
    const a = await manager();
    await buy(a.client);
    const b = await manager();
    const invoice = (await a.client.get('/billing/invoices')).body.items[0];
    expect((await b.client.get('/billing/invoices')).body.items).toEqual([]);
    expect((await b.client.get(`/billing/invoices/${invoice.id}`)).status).toBe(404);
    expect((await b.client.get(`/billing/invoices/${invoice.id}/pdf`)).status).toBe(404);
    expect((await b.client.get(`/admin/payments/${a.companyId}`)).status).toBe(403);
    expect((await b.client.get('/admin/payments')).status).toBe(403);
    const admin = await signedInAs(t, 'Administrator');
    expect((await admin.client.get(`/admin/payments/${a.companyId}`)).body.invoices).toHaveLength(1);
  });
});
