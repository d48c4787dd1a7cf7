import { z } from 'zod';
import {
  invoiceSchema,
  PLAN_KEYS,
  planLimitsSchema,
  planSchema,
  SUBSCRIPTION_STATUSES,
  subscriptionSchema,
} from './billing.contract.ts';
import { defineContract, listOf, listQuerySchema, uuidParam } from './route-contract.ts';

/** The back office's billing: every company's plan and payment events, the plan catalogue, plans by hand. */

export const paymentRowSchema = z
  .object({
    companyId: z.uuid(),
    companyName: z.string().nullable(),
    plan: z.enum(PLAN_KEYS),
    status: z.enum(SUBSCRIPTION_STATUSES),
    source: z.enum(['trial', 'stripe', 'manual']),
    endsAt: z.iso.datetime(),
    stripeCustomerId: z.string().nullable(),
    stripeSubscriptionId: z.string().nullable(),
    paidCents: z.number().int(),
  })
  .meta({ id: 'PaymentRow' });
export type PaymentRow = z.infer<typeof paymentRowSchema>;

export const paymentEventSchema = z.object({
  id: z.string(),
  type: z.string(),
  receivedAt: z.iso.datetime(),
  processedAt: z.iso.datetime().nullable(),
  stripeObjectId: z.string().nullable(),
});
export type PaymentEvent = z.infer<typeof paymentEventSchema>;

export const paymentDetailSchema = z
  .object({
    company: z.object({ id: z.uuid(), name: z.string().nullable() }),
    subscription: subscriptionSchema.nullable(),
    stripeCustomerId: z.string().nullable(),
    stripeSubscriptionId: z.string().nullable(),
    history: z.array(
      z.object({
        plan: z.enum(PLAN_KEYS),
        status: z.enum(SUBSCRIPTION_STATUSES),
        source: z.enum(['trial', 'stripe', 'manual']),
        startsAt: z.iso.datetime(),
        endsAt: z.iso.datetime(),
        createdAt: z.iso.datetime(),
      }),
    ),
    events: z.array(paymentEventSchema),
    invoices: z.array(invoiceSchema),
  })
  .meta({ id: 'PaymentDetail' });
export type PaymentDetail = z.infer<typeof paymentDetailSchema>;

export const planUpdateBodySchema = z.strictObject({
  priceCents: z.number().int().min(0).max(10_000_000).nullable(),
  limits: planLimitsSchema,
});

export const planAssignmentBodySchema = z.strictObject({
  plan: z.enum(PLAN_KEYS),
  /** The day the assigned plan ends (a free or extended plan). */
  endsAt: z.iso.datetime(),
});

const tags = ['admin-billing'];
const companyParams = uuidParam('companyId');

export const adminBillingContracts = {
  payments: defineContract({
    method: 'GET',
    path: '/admin/payments',
    operationId: 'listPayments',
    summary: "Every company's plan with its Stripe ids and what it paid, by company name (q searches it)",
    tags,
    permission: { action: 'read', subject: 'Subscription' },
    querystring: listQuerySchema,
    responses: { 200: listOf(paymentRowSchema) },
  }),
  payment: defineContract({
    method: 'GET',
    path: '/admin/payments/:companyId',
    operationId: 'getPayment',
    summary: "One company's plans over time, its Stripe events and its invoices",
    tags,
    permission: { action: 'read', subject: 'Subscription' },
    params: companyParams,
    responses: { 200: paymentDetailSchema },
  }),
  assignPlan: defineContract({
    method: 'PUT',
    path: '/admin/payments/:companyId/plan',
    operationId: 'assignPlan',
    summary: 'Gives a company a plan by hand until a day (free or extended); noted in the activity log',
    tags,
    permission: { action: 'manage', subject: 'Subscription' },
    params: companyParams,
    body: planAssignmentBodySchema,
    responses: { 200: paymentDetailSchema },
  }),
  plans: defineContract({
    method: 'GET',
    path: '/admin/plans',
    operationId: 'listPlans',
    summary: 'The plan catalogue with its limits and prices',
    tags,
    permission: { action: 'read', subject: 'Plan' },
    responses: { 200: z.object({ items: z.array(planSchema) }) },
  }),
  updatePlan: defineContract({
    method: 'PUT',
    path: '/admin/plans/:plan',
    operationId: 'updatePlan',
    summary: "Changes a plan's limits and price; every company on it has the new limits at once",
    tags,
    permission: { action: 'update', subject: 'Plan' },
    params: z.object({ plan: z.enum(PLAN_KEYS) }),
    body: planUpdateBodySchema,
    responses: { 200: planSchema },
  }),
};
