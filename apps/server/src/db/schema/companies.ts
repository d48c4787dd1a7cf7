import { PLAN_KEYS, SUBSCRIPTION_STATUSES } from '@werkwissen/shared';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * A tenant: owns its divisions, files, chats, employees, settings and plan. A suspended company (`suspendedAt`, set by
 * the operator with a reason) has its users' sign-ins, sessions, API keys and public chats refused until it is resumed.
 */
export const companies = pgTable('companies', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name'),
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  suspendedReason: text('suspended_reason'),
  /** The company's own colour ("#1f5fa8") for its public chat and feedback pages; null: the product's colours. */
  brandColor: text('brand_color'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A company's plan over time; the newest row is the current plan. A row is the sign-up trial, a plan the operator
 * assigned by hand, or one Stripe subscription (updated in place from Stripe: status, period end, cancelling; the
 * newest Stripe event applied is `lastEventAt`, so an older event never overwrites a newer state).
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    plan: text('plan', { enum: PLAN_KEYS }).notNull(),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    source: text('source', { enum: ['trial', 'stripe', 'manual'] })
      .notNull()
      .default('trial'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    /** The end of the trial, of the assigned plan, or of the paid period. */
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
    /** The mails of the lifecycle already sent for this row (`trialEnding`, `planExpired`, ...), each once. */
    notified: text('notified').array().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_company_idx').on(t.companyId, t.createdAt),
    uniqueIndex('subscriptions_stripe_subscription_idx').on(t.stripeSubscriptionId),
  ],
);
