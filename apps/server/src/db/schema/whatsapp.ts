import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { chatMessages, chats } from './chats.ts';
import { companies } from './companies.ts';
import { users } from './users.ts';

/** What happens to a message from a number no user of the company saved: refused politely, or a public chat's. */
export type WhatsAppUnknownNumbers = 'refuse' | 'publicChat';

/**
 * A company's WhatsApp Business number (one per company): the Cloud API ids, the access token and app secret sealed
 * with the installation's key, the verify token Meta echoes when the webhook is set up, and the random key that names
 * the company in the webhook's address.
 */
export const whatsappConnections = pgTable(
  'whatsapp_connections',
  {
    companyId: uuid('company_id')
      .primaryKey()
      .references(() => companies.id, { onDelete: 'cascade' }),
    companyKey: text('company_key').notNull(),
    phoneNumberId: text('phone_number_id').notNull(),
    businessAccountId: text('business_account_id').notNull(),
    accessTokenEncrypted: text('access_token_encrypted').notNull(),
    accessTokenHint: text('access_token_hint').notNull(),
    appSecretEncrypted: text('app_secret_encrypted').notNull(),
    appSecretHint: text('app_secret_hint').notNull(),
    verifyToken: text('verify_token').notNull(),
    /** The number as Meta shows it (`+49 30 1234567`), read from the Graph API when the connection was checked. */
    displayPhoneNumber: text('display_phone_number'),
    unknownNumbers: text('unknown_numbers').$type<WhatsAppUnknownNumbers>().notNull().default('refuse'),
    publicChatId: uuid('public_chat_id').references(() => chats.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_connections_key_unique').on(t.companyKey),
    uniqueIndex('whatsapp_connections_phone_unique').on(t.phoneNumberId),
  ],
);

export type WhatsAppDirection = 'in' | 'out';
/**
 * Incoming: received, answering, answered, refused (unknown number, unsupported kind), expired (older than the
 * 24-hour window), failed. Outgoing: pending, then Meta's sent, delivered, read or failed.
 */
export type WhatsAppMessageStatus =
  | 'received'
  | 'answering'
  | 'answered'
  | 'refused'
  | 'expired'
  | 'pending'
  | 'sent'
  | 'delivered'
  | 'read'
  | 'failed';

/**
 * Every WhatsApp message in either direction. An incoming one is stored once by Meta's message id (deliveries are
 * at-least-once); an outgoing one is a part of a reply (`replyTo`, in `part` order) and takes Meta's id when sent, so
 * that status updates find it.
 */
export const whatsappMessages = pgTable(
  'whatsapp_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    direction: text('direction').$type<WhatsAppDirection>().notNull(),
    waMessageId: text('wa_message_id'),
    /** The other party's WhatsApp id (their number's digits). */
    contact: text('contact').notNull(),
    contactName: text('contact_name'),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull().default({}),
    body: text('body'),
    status: text('status').$type<WhatsAppMessageStatus>().notNull(),
    errorCode: text('error_code'),
    replyTo: uuid('reply_to'),
    part: integer('part'),
    chatMessageId: uuid('chat_message_id').references(() => chatMessages.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_messages_wa_id_unique')
      .on(t.companyId, t.direction, t.waMessageId)
      .where(sql`${t.waMessageId} is not null`),
    index('whatsapp_messages_reply_idx').on(t.replyTo, t.part),
    // The sweep's rows (whatsapp-requeue.job.ts): messages not yet answered, reply parts not yet sent.
    index('whatsapp_messages_unsettled_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('received', 'pending')`),
  ],
);

/**
 * A user's pending confirmation of their phone number: a code shown in their profile that they send from that number
 * by WhatsApp. One per user; the code is kept as its SHA-256 hash, dies after five codes tried from the number or at
 * `expires_at`, and confirms only the digits it was issued for.
 */
export const phoneVerifications = pgTable('phone_verifications', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  phoneDigits: text('phone_digits').notNull(),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
