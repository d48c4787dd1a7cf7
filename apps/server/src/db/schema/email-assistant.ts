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
 * UIDVALIDITY and the last UID whose mail is durably stored, with the lease of the one worker reading it.
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
    /** Mail delivered before this is never read: the time the setting (or its mailbox) was saved, or a chosen one. */
    answerFrom: timestamp('answer_from', { withTimezone: true }).notNull().defaultNow(),
    uidValidity: text('uid_validity'),
    lastUid: bigint('last_uid', { mode: 'number' }).notNull().default(0),
    /** The worker process watching or polling the mailbox (`mail_watchers.id`) and until when, unless renewed. */
    leaseHolder: text('lease_holder'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    /** The error code of the last failed read of the mailbox (null: it worked). */
    checkError: text('check_error'),
    /** Failed connections in a row, and when the next may be tried (a short backoff, so a server back is read at once). */
    failures: integer('failures').notNull().default(0),
    retryAt: timestamp('retry_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('email_settings_company_idx').on(t.companyId)],
);

/** What became of an incoming mail: waiting (queued, answering, sending, waiting), answered, ignored or failed. */
export type InboundStatus =
  | 'queued'
  | 'waiting'
  | 'answering'
  | 'sending'
  | 'answered'
  | 'ignored'
  | 'failed';

/**
 * One conversation per mail thread of a mailbox (its first Message-ID): the chat that holds its questions and
 * answers, named by its subject, with the sender who started it.
 */
export const emailConversations = pgTable(
  'email_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    settingId: uuid('setting_id')
      .notNull()
      .references(() => emailSettings.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    rootMessageId: text('root_message_id').notNull(),
    sender: text('sender').notNull(),
    subject: text('subject').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_conversations_root_unique').on(t.settingId, t.rootMessageId),
    index('email_conversations_chat_idx').on(t.chatId),
  ],
);

/**
 * The worker processes that watch mailboxes, each with how many it may hold in IDLE: seen within the lease's
 * length, they share the mailboxes between them.
 */
export const mailWatchers = pgTable('mail_watchers', {
  id: text('id').primaryKey(),
  capacity: integer('capacity').notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every mail the assistant read from a mailbox, once per Message-ID, with its fate: queued for an answer, waiting
 * (over a sender's hourly limit, until `retry_at`), being answered, its stored answer being sent, answered, ignored
 * with the reason (a sender not allowed, an auto-reply, a bounce, a list, ourselves, too large), or failed.
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
    status: text('status').$type<InboundStatus>().notNull(),
    reason: text('reason'),
    /** What went wrong, for the operator's log (an SMTP server's reply); the list shows the reason. */
    error: text('error'),
    claimedBy: text('claimed_by'),
    /** When the mail took its place under the sender's and the thread's hourly limits. */
    slotAt: timestamp('slot_at', { withTimezone: true }),
    /** A waiting mail's time to be answered. */
    retryAt: timestamp('retry_at', { withTimezone: true }),
    conversationId: uuid('conversation_id').references(() => emailConversations.id, { onDelete: 'set null' }),
    /** The stored answer (written once; its sending is retried on its own) and the reply's text. */
    answerMessageId: uuid('answer_message_id'),
    replyText: text('reply_text'),
    replyMessageId: text('reply_message_id'),
    /** When the mailbox's server received the mail (IMAP INTERNALDATE). */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('email_inbound_message_unique').on(t.settingId, t.messageId),
    index('email_inbound_pending_idx')
      .on(t.settingId)
      .where(sql`${t.status} in ('queued', 'waiting', 'answering', 'sending')`),
    index('email_inbound_list_idx').on(t.settingId, t.receivedAt),
    index('email_inbound_slot_idx').on(t.settingId, t.fromAddress, t.slotAt),
  ],
);
