import type { MailSecurity } from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { chats } from './chats.ts';
import { companies } from './companies.ts';
import { divisions } from './knowledge.ts';
import { users } from './users.ts';

/**
 * A division's e-mail assistant: the mailbox it reads by IMAP and answers from by SMTP (password sealed with the
 * installation's key), who may ask (at most 2 allowed addresses), and the reader's cursor: the mailbox's
 * UIDVALIDITY and the last UID whose mail is durably queued, with the lease of the one worker reading it.
 */
export const emailSettings = pgTable(
  'email_settings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    divisionId: uuid('division_id')
      .notNull()
      .references(() => divisions.id, { onDelete: 'cascade' }),
    /** Whose chat the conversations land in (the data manager who added the setting). */
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id').references(() => chats.id, { onDelete: 'set null' }),
    fromEmail: text('from_email').notNull(),
    allowedEmails: jsonb('allowed_emails').$type<string[]>().notNull(),
    isPrivate: boolean('is_private').notNull().default(false),
    smtpHost: text('smtp_host').notNull(),
    smtpPort: integer('smtp_port').notNull(),
    imapHost: text('imap_host').notNull(),
    imapPort: integer('imap_port').notNull(),
    smtpEmail: text('smtp_email').notNull(),
    userName: text('user_name').notNull(),
    passwordSealed: text('password_sealed').notNull(),
    security: text('security').$type<MailSecurity>().notNull(),
    /**
     * The name the mailbox's own mail server writes into `Authentication-Results` (its authserv-id, RFC 8601): only
     * that server's verdict on a sender is read; '' reads none (anyone can write the header into their mail).
     */
    authservId: text('authserv_id').notNull().default(''),
    uidValidity: text('uid_validity'),
    lastUid: bigint('last_uid', { mode: 'number' }).notNull().default(0),
    leaseHolder: text('lease_holder'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    /** The error code of the last failed read of the mailbox (null: it worked). */
    checkError: text('check_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('email_settings_company_idx').on(t.companyId)],
);

/**
 * Every mail the assistant read from a mailbox, once per Message-ID: queued for an answer, or ignored with the
 * reason (a sender not allowed, an auto-reply, a bounce, a list, ourselves, a rate limit).
 */
export const emailInbound = pgTable(
  'email_inbound',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    settingId: uuid('setting_id')
      .notNull()
      .references(() => emailSettings.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    uid: bigint('uid', { mode: 'number' }).notNull(),
    messageId: text('message_id').notNull(),
    fromAddress: text('from_address').notNull(),
    subject: text('subject').notNull(),
    question: text('question').notNull(),
    /** The thread's Message-IDs, oldest first (`References` of the mail, then its own). */
    references: jsonb('references').$type<string[]>().notNull(),
    status: text('status').$type<'queued' | 'answering' | 'answered' | 'ignored' | 'failed'>().notNull(),
    reason: text('reason'),
    claimedBy: text('claimed_by'),
    replyMessageId: text('reply_message_id'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('email_inbound_message_unique').on(t.settingId, t.messageId),
    index('email_inbound_sender_idx').on(t.settingId, t.fromAddress, t.answeredAt),
    index('email_inbound_queued_idx').on(t.settingId).where(sql`${t.status} in ('queued', 'answering')`),
  ],
);
