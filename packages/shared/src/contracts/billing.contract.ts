import { z } from 'zod';
import { defineContract, fileResponse, listOf, listQuerySchema, uuidParam } from './route-contract.ts';

/** The plans of the catalogue (rows of the `plans` table; their limits and prices are the operator's to edit). */
export const PLAN_KEYS = [
  'trial',
  'monthly',
  'halfYearly',
  'handwerkTrial',
  'handwerkPro',
  'handwerkEnterprise',
] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];

/**
 * Where a subscription stands: `trial` (no payment yet), `active` (paid or assigned), `past_due` (a payment failed,
 * Stripe retries), `expired` (unpaid or ended: read, export and pay only), `cancelled` (ends at its period end).
 */
export const SUBSCRIPTION_STATUSES = ['trial', 'active', 'past_due', 'expired', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The limits a plan sets; a limit of null is none (or, for divisions, employees and storage, the system setting). */
export const PLAN_LIMITS = [
  'storageBytes',
  'divisions',
  'employees',
  'smtpSettings',
  'emailSettings',
  'questionsPerMonth',
] as const;
export type PlanLimit = (typeof PLAN_LIMITS)[number];

/** Days before a plan's end from which the product prompts for renewal. */
export const RENEWAL_PROMPT_DAYS = 7;

const limitValue = z.number().int().min(0).nullable();
export const planLimitsSchema = z.object({
  storageBytes: limitValue,
  divisions: limitValue,
  employees: limitValue,
  smtpSettings: limitValue,
  emailSettings: limitValue,
  questionsPerMonth: limitValue,
});
export type PlanLimits = z.infer<typeof planLimitsSchema>;

export const planSchema = z
  .object({
    key: z.enum(PLAN_KEYS),
    /** Months one payment covers (null: a trial). */
    intervalMonths: z.number().int().nullable(),
    priceCents: z.number().int().nullable(),
    currency: z.string(),
    /** Whether a data manager can buy it here: payments on and a Stripe price id configured. */
    forSale: z.boolean(),
    /** The catalogue's limits (null: divisions, employees and storage follow the system settings, others none). */
    limits: planLimitsSchema,
  })
  .meta({ id: 'Plan' });
export type Plan = z.infer<typeof planSchema>;

export const subscriptionSchema = z
  .object({
    plan: z.enum(PLAN_KEYS),
    status: z.enum(SUBSCRIPTION_STATUSES),
    /** Who keeps it going: the trial at sign-up, Stripe, or the operator by hand. */
    source: z.enum(['trial', 'stripe', 'manual']),
    startsAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
    daysRemaining: z.number().int(),
    cancelAtPeriodEnd: z.boolean(),
    /** From RENEWAL_PROMPT_DAYS before the end of a plan that does not renew by itself, and once it has ended. */
    renewalDue: z.boolean(),
    /** Ended: sign-in, reading, export and paying only. */
    ended: z.boolean(),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof subscriptionSchema>;

export const billingStatusSchema = z
  .object({ paymentsEnabled: z.boolean(), subscription: subscriptionSchema.nullable() })
  .meta({ id: 'BillingStatus' });
export type BillingStatus = z.infer<typeof billingStatusSchema>;

export const usageSchema = z.object({
  limit: z.enum(PLAN_LIMITS),
  used: z.number().int(),
  max: z.number().int().nullable(),
});
export type Usage = z.infer<typeof usageSchema>;

export const billingOverviewSchema = z
  .object({
    paymentsEnabled: z.boolean(),
    subscription: subscriptionSchema.nullable(),
    usage: z.array(usageSchema),
    plans: z.array(planSchema),
  })
  .meta({ id: 'BillingOverview' });
export type BillingOverview = z.infer<typeof billingOverviewSchema>;

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'uncollectible', 'void'] as const;
export const invoiceSchema = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    companyName: z.string().nullable(),
    number: z.string().nullable(),
    plan: z.enum(PLAN_KEYS).nullable(),
    currency: z.string(),
    totalCents: z.number().int(),
    paidCents: z.number().int(),
    status: z.enum(INVOICE_STATUSES),
    issuedAt: z.iso.datetime(),
    periodStart: z.iso.datetime().nullable(),
    periodEnd: z.iso.datetime().nullable(),
    stripeInvoiceId: z.string(),
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof invoiceSchema>;

/**
 * The status a platform invoice is shown with (`billing.invoiceStatus.*`): Stripe marks an invoice of 0 (a trial
 * carried over, a full discount) "paid", but nothing was paid: it reads "Nothing due".
 */
export function invoiceStatusShown(invoice: Pick<Invoice, 'status' | 'totalCents'>): string {
  return invoice.status === 'paid' && invoice.totalCents === 0 ? 'noCharge' : invoice.status;
}

export const checkoutBodySchema = z.strictObject({ plan: z.enum(PLAN_KEYS) });

const tags = ['billing'];
const invoiceParams = uuidParam('invoiceId');

export const billingContracts = {
  status: defineContract({
    method: 'GET',
    path: '/billing/status',
    operationId: 'getBillingStatus',
    summary: "The company's plan and whether it has ended or needs renewal (for every member's banner)",
    tags,
    permission: 'signedIn',
    responses: { 200: billingStatusSchema },
  }),
  overview: defineContract({
    method: 'GET',
    path: '/billing',
    operationId: 'getBilling',
    summary: "The company's plan, its usage against each limit, and the plans on offer",
    tags,
    permission: { action: 'read', subject: 'Subscription' },
    responses: { 200: billingOverviewSchema },
  }),
  checkout: defineContract({
    method: 'POST',
    path: '/billing/checkout',
    operationId: 'createCheckout',
    summary: 'Opens a Stripe Checkout session for a plan; answers the page to send the browser to',
    tags,
    permission: { action: 'update', subject: 'Subscription' },
    body: checkoutBodySchema,
    responses: { 200: z.object({ url: z.string() }) },
  }),
  portal: defineContract({
    method: 'POST',
    path: '/billing/portal',
    operationId: 'createBillingPortal',
    summary: "Opens Stripe's customer portal (payment methods) for the company's paid subscription",
    tags,
    permission: { action: 'update', subject: 'Subscription' },
    responses: { 200: z.object({ url: z.string() }) },
  }),
  cancel: defineContract({
    method: 'POST',
    path: '/billing/cancel',
    operationId: 'cancelSubscription',
    summary: 'Cancels the paid subscription at the end of its period (nothing is deleted)',
    tags,
    permission: { action: 'update', subject: 'Subscription' },
    responses: { 200: billingOverviewSchema },
  }),
  invoices: defineContract({
    method: 'GET',
    path: '/billing/invoices',
    operationId: 'listInvoices',
    summary:
      "Invoices, newest first: the company's own, or every company's for the operator (q: number or company)",
    tags,
    permission: { action: 'read', subject: 'Invoice' },
    querystring: listQuerySchema,
    responses: { 200: listOf(invoiceSchema) },
  }),
  invoice: defineContract({
    method: 'GET',
    path: '/billing/invoices/:invoiceId',
    operationId: 'getInvoice',
    summary: 'One invoice',
    tags,
    permission: { action: 'read', subject: 'Invoice' },
    params: invoiceParams,
    responses: { 200: invoiceSchema },
  }),
  invoicePdf: defineContract({
    method: 'GET',
    path: '/billing/invoices/:invoiceId/pdf',
    operationId: 'getInvoicePdf',
    summary: 'One invoice as a PDF (a download)',
    tags,
    permission: { action: 'read', subject: 'Invoice' },
    params: invoiceParams,
    responses: { 200: fileResponse('The PDF, as a download', ['application/pdf']) },
  }),
  stripeWebhook: defineContract({
    method: 'POST',
    path: '/webhooks/stripe',
    operationId: 'receiveStripeWebhook',
    summary:
      "Stripe's events, signed (Stripe-Signature over the raw body); each is stored once and processed by a job",
    tags,
    permission: 'public',
    responses: { 200: z.object({ received: z.literal(true) }) },
  }),
};
