import { INVOICE_STATUSES, PLAN_KEYS } from '@werkwissen/shared';
import { bigint, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';

/**
 * The plan catalogue, seeded by the migration and edited by the operator: price and limits per plan. A null limit
 * is none, except divisions, employees and storage, which then follow the system settings. Stripe price ids come
 * from the configuration (`plan-catalogue.ts`).
 */
export const plans = pgTable('plans', {
  key: text('key', { enum: PLAN_KEYS }).primaryKey(),
  intervalMonths: integer('interval_months'),
  priceCents: integer('price_cents'),
  currency: text('currency').notNull().default('eur'),
  storageBytes: bigint('storage_bytes', { mode: 'number' }),
  divisions: integer('divisions'),
  employees: integer('employees'),
  smtpSettings: integer('smtp_settings'),
  emailSettings: integer('email_settings'),
  questionsPerMonth: integer('questions_per_month'),
  sortOrder: integer('sort_order').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every Stripe event received, by Stripe's id: stored once (a replay finds it) and processed once by a job. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  payload: jsonb('payload').notNull(),
  /** Stripe's `created` of the event: the order in which states are applied. */
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  companyId: uuid('company_id').references(() => companies.id, { onDelete: 'set null' }),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
});

/** A company's invoices as Stripe issued them (the PDF is made from these rows). */
export const invoices = pgTable('invoices', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  stripeInvoiceId: text('stripe_invoice_id').notNull().unique(),
  stripeSubscriptionId: text('stripe_subscription_id'),
  number: text('number'),
  plan: text('plan', { enum: PLAN_KEYS }),
  currency: text('currency').notNull(),
  totalCents: integer('total_cents').notNull(),
  paidCents: integer('paid_cents').notNull(),
  status: text('status', { enum: INVOICE_STATUSES }).notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
  periodStart: timestamp('period_start', { withTimezone: true }),
  periodEnd: timestamp('period_end', { withTimezone: true }),
  customerName: text('customer_name'),
  customerAddress: text('customer_address'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
