import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';
import { salesDocuments } from './sales-documents.ts';
import { users } from './users.ts';

/** A file a mail carries, kept in file storage under `storageKey` as it was sent. */
export interface MailAttachment {
  fileName: string;
  contentType: string;
  storageKey: string;
}

/** Every outgoing e-mail, written before it is sent; the send job delivers it and records the outcome. */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    to: text('to').notNull(),
    template: text('template').notNull(),
    language: text('language').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** The display name beside MAIL_FROM (a company writing to its customer), else the product's. */
    fromName: text('from_name'),
    /** Where replies go (the company's own address for a mail to its customer). */
    replyTo: text('reply_to'),
    attachments: jsonb('attachments').$type<MailAttachment[]>().notNull().default([]),
    /** The offer or invoice this mail took to a customer. */
    salesDocumentId: uuid('sales_document_id').references(() => salesDocuments.id, { onDelete: 'set null' }),
    /**
     * The single-use token of the mail's link (verification, reset, invitation), sealed with ENCRYPTION_KEY; the
     * stored subject, text and HTML carry a mask in its place, and only the send job puts it back.
     */
    linkSealed: text('link_sealed'),
    /** The mail counts against its company's mail budget (the company caused it: documents, invitations, ...). */
    budgeted: boolean('budgeted').notNull().default(false),
    status: text('status', { enum: ['queued', 'sent', 'not_sent', 'failed'] })
      .notNull()
      .default('queued'),
    statusReason: text('status_reason'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('email_outbox_created_idx').on(t.createdAt),
    index('email_outbox_status_idx').on(t.status),
    index('email_outbox_sales_document_idx').on(t.salesDocumentId),
    index('email_outbox_budget_idx').on(t.companyId, t.createdAt).where(sql`${t.budgeted}`),
  ],
);

/**
 * The activity log: every mutating request and every sign-in event; a change of platform settings (templates,
 * system settings) also carries what it changed, before and after.
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email'),
    /** The operator who made the request while viewing the product as the actor (impersonation), if so. */
    impersonatorUserId: uuid('impersonator_user_id').references(() => users.id, { onDelete: 'set null' }),
    impersonatorEmail: text('impersonator_email'),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    method: text('method').notNull(),
    endpoint: text('endpoint').notNull(),
    statusCode: integer('status_code').notNull(),
    ip: text('ip'),
    requestId: text('request_id'),
    changes: jsonb('changes').$type<{ before: unknown; after: unknown }>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activity_log_created_idx').on(t.createdAt),
    index('activity_log_company_idx').on(t.companyId),
  ],
);
