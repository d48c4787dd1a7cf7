import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * A tenant: owns its divisions, files, chats, employees, settings and plan. A suspended company (`suspendedAt`, set by
 * the operator with a reason) has its users' sign-ins, sessions, API keys and public chats refused until it is resumed.
 */
export const companies = pgTable('companies', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name'),
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  suspendedReason: text('suspended_reason'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A company's plan over time; the newest row is the current plan. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    plan: text('plan', { enum: ['trial', 'monthly', 'halfYearly'] }).notNull(),
    status: text('status', { enum: ['active', 'expired', 'cancelled'] }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('subscriptions_company_idx').on(t.companyId, t.createdAt)],
);
