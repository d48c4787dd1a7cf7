import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the parts of Stripe's API the product calls, on 127.0.0.1: form-encoded bodies with
 * bracketed keys (`subscription_data[metadata][companyId]`), the `Stripe-Version` and `Idempotency-Key` headers (a
 * repeated key answers the first response), Stripe's error shape; checkout sessions with a checkout page that
 * "pays", customers, subscriptions (retrieve, update, cancel), invoices and billing portal sessions. Events are
 * sent to the webhook signed exactly like Stripe's: `Stripe-Signature: t=<unix>,v1=<HMAC-SHA256(secret, t.body)>`.
 * Tests move time on with `renew`, `failPayment`, `endTrial` and `expire`, each sending the events Stripe would.
 */

type Obj = Record<string, unknown>;
const DAY = 86_400;

export interface FakePrice {
  unitAmount: number;
  currency: string;
  intervalMonths: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  params: Obj;
  stripeVersion: string | undefined;
  idempotencyKey: string | undefined;
}

export interface StripeEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Obj };
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Reads `a[b][0][c]=v` form keys into nested objects and arrays, as Stripe does. */
export function parseStripeForm(body: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Obj = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) {
        node[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[i + 1]!);
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Obj;
    });
  }
  return root;
}

const addMonths = (seconds: number, months: number) => {
  const d = new Date(seconds * 1000);
  d.setUTCMonth(d.getUTCMonth() + months);
  return Math.floor(d.getTime() / 1000);
};

export class FakeStripe {
  readonly secretKey = `sk_test_${randomBytes(8).toString('hex')}`;
  readonly webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  readonly prices = new Map<string, FakePrice>();
  readonly requests: RecordedRequest[] = [];
  readonly sent: StripeEvent[] = [];
  /** Where events go (the product's /api/v1/webhooks/stripe); none: events are only recorded. */
  webhookUrl: string | null = null;
  private server: Server | null = null;
  private base = '';
  private readonly sessions = new Map<string, Obj>();
  private readonly customers = new Map<string, Obj>();
  private readonly subscriptions = new Map<string, Obj>();
  private readonly invoices = new Map<string, Obj>();
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  private invoiceNumber = 0;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.base;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The configuration that points the product at this double. */
  env(prices: Record<'monthly' | 'halfYearly', string>): Record<string, string> {
    return {
      PAYMENTS_ENABLED: 'true',
      STRIPE_SECRET_KEY: this.secretKey,
      STRIPE_WEBHOOK_SECRET: this.webhookSecret,
      STRIPE_API_URL: this.base,
      STRIPE_MONTHLY_PRICE_ID: prices.monthly,
      STRIPE_SIX_MONTH_PRICE_ID: prices.halfYearly,
      STRIPE_30_DAY_PRODUCT_ID: 'prod_monthly',
      STRIPE_SIX_MONTH_PRODUCT_ID: 'prod_six_months',
    };
  }

  /** The `Stripe-Signature` header Stripe would send for this body, with this secret and time. */
  signature(body: string, secret = this.webhookSecret, timestamp = nowSeconds()): string {
    const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    return `t=${timestamp},v1=${v1}`;
  }

  /** Posts a raw body with a given signature header (or none) to the webhook; answers the product's response. */
  async deliverRaw(body: string, signature: string | null): Promise<Response> {
    if (!this.webhookUrl) throw new Error('no webhook url');
    return fetch(this.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
      body,
    });
  }

  /** Sends an event again (Stripe's retries, or a replay), signed anew. */
  async deliver(event: StripeEvent): Promise<Response> {
    const body = JSON.stringify({
      ...event,
      object: 'event',
      api_version: '2026-10-28.endive',
      livemode: false,
    });
    return this.deliverRaw(body, this.signature(body));
  }

  /** Sends an event of this type about this object (its `created` may be set, e.g. older than the last). */
  async send(type: string, object: Obj, created = nowSeconds()): Promise<StripeEvent> {
    const event = { id: newId('evt'), type, created, data: { object: structuredClone(object) } };
    this.sent.push(event);
    if (this.webhookUrl) {
      const res = await this.deliver(event);
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
    }
    return event;
  }

  subscription(id: string): Obj {
    const sub = this.subscriptions.get(id);
    if (!sub) throw new Error(`no subscription ${id}`);
    return sub;
  }

  /** The checkout page's "Pay" without a browser: completes the session as a successful payment. */
  async pay(sessionId: string): Promise<Obj> {
    const session = this.sessions.get(sessionId);
    if (session?.status !== 'open') throw new Error(`no open session ${sessionId}`);
    const customerId =
      (session.customer as string | null) ?? this.createCustomer({ email: session.customer_email });
    const data = (session.subscription_data ?? {}) as Obj;
    const priceId = ((session.line_items as Obj[])[0] as Obj).price as string;
    const trialEnd = data.trial_end ? Number(data.trial_end) : null;
    const start = nowSeconds();
    const sub: Obj = {
      id: newId('sub'),
      object: 'subscription',
      customer: customerId,
      status: trialEnd ? 'trialing' : 'active',
      cancel_at_period_end: false,
      metadata: data.metadata ?? {},
      trial_end: trialEnd,
      trial_settings: data.trial_settings ?? null,
      start_date: start,
      ended_at: null,
      items: { object: 'list', data: [] },
    };
    this.setItem(sub, priceId, start, trialEnd ?? addMonths(start, this.price(priceId).intervalMonths));
    this.subscriptions.set(sub.id as string, sub);
    Object.assign(session, { status: 'complete', customer: customerId, subscription: sub.id });
    await this.send('checkout.session.completed', session);
    await this.send('customer.subscription.created', sub);
    await this.issueInvoice(sub, trialEnd ? 0 : undefined, true);
    return sub;
  }

  /** The next period begins: a new invoice is paid and the subscription (also a trial) becomes active. */
  async renew(subscriptionId: string): Promise<void> {
    const sub = this.subscription(subscriptionId);
    const item = (sub.items as { data: Obj[] }).data[0]!;
    const start = item.current_period_end as number;
    this.setItem(
      sub,
      (item.price as Obj).id as string,
      start,
      addMonths(start, this.priceOf(sub).intervalMonths),
    );
    sub.status = 'active';
    sub.trial_end = null;
    await this.issueInvoice(sub, undefined, true);
    await this.send('customer.subscription.updated', sub);
  }

  /** A renewal's payment fails: attempt `attempt` (the third is Stripe's last), the subscription is past_due. */
  async failPayment(subscriptionId: string, attempt: number): Promise<Obj> {
    const sub = this.subscription(subscriptionId);
    let invoice = [...this.invoices.values()].find(
      (i) => this.invoiceSub(i) === sub.id && i.status === 'open',
    );
    if (!invoice) invoice = await this.issueInvoice(sub, undefined, false);
    invoice.attempt_count = attempt;
    invoice.next_payment_attempt = attempt >= 3 ? null : nowSeconds() + 3 * DAY;
    sub.status = 'past_due';
    await this.send('invoice.payment_failed', invoice);
    await this.send('customer.subscription.updated', sub);
    return invoice;
  }

  /** Stripe gives up (or the period of a cancelled subscription ends): the subscription is cancelled for good. */
  async expire(subscriptionId: string): Promise<void> {
    const sub = this.subscription(subscriptionId);
    sub.status = 'canceled';
    sub.ended_at = nowSeconds();
    for (const invoice of this.invoices.values()) {
      if (this.invoiceSub(invoice) === sub.id && invoice.status === 'open') invoice.status = 'uncollectible';
    }
    await this.send('customer.subscription.deleted', sub);
  }

  async trialWillEnd(subscriptionId: string): Promise<void> {
    await this.send('customer.subscription.trial_will_end', this.subscription(subscriptionId));
  }

  private price(id: string): FakePrice {
    const price = this.prices.get(id);
    if (!price) throw new Error(`no price ${id}`);
    return price;
  }

  private priceOf(sub: Obj): FakePrice {
    return this.price((((sub.items as { data: Obj[] }).data[0] as Obj).price as Obj).id as string);
  }

  private setItem(sub: Obj, priceId: string, start: number, end: number) {
    const price = this.price(priceId);
    const items = sub.items as { data: Obj[] };
    const id = (items.data[0]?.id as string) ?? newId('si');
    items.data = [
      {
        id,
        object: 'subscription_item',
        price: {
          id: priceId,
          object: 'price',
          unit_amount: price.unitAmount,
          currency: price.currency,
          recurring: { interval: 'month', interval_count: price.intervalMonths },
        },
        quantity: 1,
        current_period_start: start,
        current_period_end: end,
      },
    ];
  }

  private invoiceSub(invoice: Obj): string {
    return ((invoice.parent as Obj).subscription_details as Obj).subscription as string;
  }

  private createCustomer(params: Obj): string {
    const customer = {
      id: newId('cus'),
      object: 'customer',
      email: params.email ?? null,
      name: params.name ?? null,
    };
    this.customers.set(customer.id, customer);
    return customer.id;
  }

  private async issueInvoice(sub: Obj, amount: number | undefined, paid: boolean): Promise<Obj> {
    const item = (sub.items as { data: Obj[] }).data[0]!;
    const price = item.price as Obj;
    const total = amount ?? (price.unit_amount as number);
    const created = nowSeconds();
    const customer = this.customers.get(sub.customer as string);
    const invoice: Obj = {
      id: newId('in'),
      object: 'invoice',
      customer: sub.customer,
      customer_name: customer?.name ?? 'Firma Test GmbH',
      customer_address: {
        line1: 'Werkstraße 1',
        line2: null,
        postal_code: '10115',
        city: 'Berlin',
        country: 'DE',
      },
      number: `WW-${String(++this.invoiceNumber).padStart(4, '0')}`,
      currency: price.currency,
      total,
      amount_due: total,
      amount_paid: paid ? total : 0,
      status: paid ? 'paid' : 'open',
      created,
      status_transitions: { finalized_at: created, paid_at: paid ? created : null },
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      attempt_count: paid ? 1 : 0,
      next_payment_attempt: null,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: sub.metadata },
      },
      lines: { object: 'list', data: [{ pricing: { price_details: { price: price.id } }, amount: total }] },
    };
    this.invoices.set(invoice.id as string, invoice);
    await this.send('invoice.finalized', invoice);
    if (paid) await this.send('invoice.paid', invoice);
    return invoice;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.base);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString();
    if (url.pathname.startsWith('/checkout/')) return this.checkoutPage(url, req.method ?? 'GET', res);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      res.end(JSON.stringify(body));
      return { status, body };
    };
    const fail = (status: number, message: string, param?: string) =>
      json(status, { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } });
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return json(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    const params = req.method === 'GET' ? parseStripeForm(url.searchParams.toString()) : parseStripeForm(raw);
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    this.requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      params,
      stripeVersion: req.headers['stripe-version'] as string | undefined,
      idempotencyKey,
    });
    const replayKey = idempotencyKey && req.method === 'POST' ? `${url.pathname}:${idempotencyKey}` : null;
    const earlier = replayKey ? this.idempotent.get(replayKey) : undefined;
    if (earlier) return json(earlier.status, earlier.body);
    const answer = await this.route(req.method ?? 'GET', url.pathname, params, json, fail);
    if (replayKey && answer) this.idempotent.set(replayKey, answer);
  }

  private async route(
    method: string,
    path: string,
    params: Obj,
    json: (status: number, body: unknown) => { status: number; body: unknown },
    fail: (status: number, message: string, param?: string) => { status: number; body: unknown },
  ) {
    const [, , resource, id, sub] = path.split('/');
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (params.mode !== 'subscription') return fail(400, 'Only subscription mode here', 'mode');
      const items = params.line_items as Obj[] | undefined;
      const priceId = items?.[0]?.price as string | undefined;
      if (!priceId || !this.prices.has(priceId))
        return fail(400, `No such price: '${priceId}'`, 'line_items');
      if (params.customer && !this.customers.has(params.customer as string)) {
        return fail(400, `No such customer: '${params.customer}'`, 'customer');
      }
      const session: Obj = { ...params, id: newId('cs'), object: 'checkout.session', status: 'open' };
      session.url = `${this.base}/checkout/${session.id}`;
      session.customer ??= null;
      session.subscription = null;
      this.sessions.set(session.id as string, session);
      return json(200, session);
    }
    if (resource === 'checkout' && method === 'GET') {
      const session = this.sessions.get(sub ?? '');
      return session ? json(200, session) : fail(404, 'No such checkout.session');
    }
    if (resource === 'customers' && method === 'POST' && !id) {
      return json(200, this.customers.get(this.createCustomer(params)));
    }
    if (resource === 'customers' && id) {
      const customer = this.customers.get(id);
      return customer ? json(200, customer) : fail(404, `No such customer: '${id}'`);
    }
    if (resource === 'subscriptions' && id) {
      const subscription = this.subscriptions.get(id);
      if (!subscription) return fail(404, `No such subscription: '${id}'`);
      if (method === 'GET') return json(200, subscription);
      if (method === 'DELETE') {
        subscription.status = 'canceled';
        subscription.ended_at = nowSeconds();
        await this.send('customer.subscription.deleted', subscription);
        return json(200, subscription);
      }
      if ('cancel_at_period_end' in params) {
        subscription.cancel_at_period_end = params.cancel_at_period_end === 'true';
      }
      if (params.metadata)
        subscription.metadata = { ...(subscription.metadata as Obj), ...(params.metadata as Obj) };
      const newPrice = ((params.items as Obj[] | undefined)?.[0]?.price as string | undefined) ?? null;
      if (newPrice) {
        if (!this.prices.has(newPrice)) return fail(400, `No such price: '${newPrice}'`, 'items');
        const item = (subscription.items as { data: Obj[] }).data[0]!;
        this.setItem(
          subscription,
          newPrice,
          item.current_period_start as number,
          item.current_period_end as number,
        );
      }
      await this.send('customer.subscription.updated', subscription);
      return json(200, subscription);
    }
    if (resource === 'invoices' && id) {
      const invoice = this.invoices.get(id);
      return invoice ? json(200, invoice) : fail(404, `No such invoice: '${id}'`);
    }
    if (resource === 'billing_portal' && method === 'POST') {
      if (!this.customers.has(params.customer as string)) return fail(400, 'No such customer', 'customer');
      return json(200, {
        id: newId('bps'),
        object: 'billing_portal.session',
        customer: params.customer,
        return_url: params.return_url,
        url: `${this.base}/portal/${params.customer}`,
      });
    }
    return fail(404, `Unrecognized request URL (${method}: ${path})`);
  }

  /** The hosted page: "Pay" completes the session and goes to success_url; "Cancel" goes to cancel_url. */
  private async checkoutPage(url: URL, method: string, res: ServerResponse) {
    const [, , id, action] = url.pathname.split('/');
    const session = this.sessions.get(id ?? '');
    if (!session) {
      res.writeHead(404).end('no such session');
      return;
    }
    if (method === 'POST' && action === 'pay') {
      await this.pay(session.id as string);
      const to = (session.success_url as string).replace('{CHECKOUT_SESSION_ID}', session.id as string);
      res.writeHead(303, { location: to }).end();
      return;
    }
    const price = this.price(((session.line_items as Obj[])[0] as Obj).price as string);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><body><h1>Test checkout</h1>
      <p id="amount">${(price.unitAmount / 100).toFixed(2)} ${price.currency.toUpperCase()}</p>
      <form method="post" action="/checkout/${session.id}/pay"><button id="pay" type="submit">Pay</button></form>
      <a id="cancel" href="${session.cancel_url as string}">Cancel</a></body></html>`);
  }
}
