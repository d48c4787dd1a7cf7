import type {
  AnswerProvider,
  ChatSource,
  ChatVisibility,
  FeedbackOrigin,
  MessageStatus,
  ModelProvider,
  Mood,
} from '@werkwissen/shared';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';
import { divisions } from './knowledge.ts';
import { users } from './users.ts';

/** A company's language-model provider: endpoint, model and its key, encrypted with the installation's key. */
export const aiProviders = pgTable(
  'ai_providers',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<ModelProvider>().notNull(),
    baseUrl: text('base_url'),
    apiKeyEncrypted: text('api_key_encrypted'),
    apiKeyHint: text('api_key_hint'),
    model: text('model').notNull(),
    transcriptionModel: text('transcription_model'),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.provider] })],
);

/** A named conversation space over some divisions; public chats can be shared by a revocable link. */
export const chats = pgTable(
  'chats',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    visibility: text('visibility').$type<ChatVisibility>().notNull().default('private'),
    provider: text('provider').$type<AnswerProvider>().notNull().default('builtin'),
    shareToken: text('share_token'),
    /** Where the conversation happens: the web app, a user's one WhatsApp chat, the e-mail assistant, or the API. */
    source: text('source').$type<ChatSource>().notNull().default('web'),
    /** The public chat is also a website widget (its share link's page, framed by `widgetOrigins` only). */
    widgetEnabled: boolean('widget_enabled').notNull().default(false),
    /** The website origins (`https://shop.example`) that may frame the widget. */
    widgetOrigins: text('widget_origins').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chats_company_owner_idx').on(t.companyId, t.ownerId),
    uniqueIndex('chats_share_token_unique').on(t.shareToken),
    uniqueIndex('chats_whatsapp_owner_unique').on(t.ownerId).where(sql`${t.source} = 'whatsapp'`),
    uniqueIndex('chats_api_owner_unique').on(t.ownerId).where(sql`${t.source} = 'api'`),
  ],
);

export const chatDivisions = pgTable(
  'chat_divisions',
  {
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    divisionId: uuid('division_id')
      .notNull()
      .references(() => divisions.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.chatId, t.divisionId] }),
    index('chat_divisions_division_idx').on(t.divisionId),
  ],
);

/**
 * An outside person using a public chat's link: a browser cookie (stored as its SHA-256) keeps their own thread.
 * With a name and a phone number or e-mail they are listed as a public user.
 */
export const chatVisitors = pgTable(
  'chat_visitors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    name: text('name'),
    phone: text('phone'),
    email: text('email'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('chat_visitors_token_unique').on(t.tokenHash),
    index('chat_visitors_chat_idx').on(t.chatId),
  ],
);

/** One participant's conversation in a chat: a signed-in user's or a visitor's. Nobody sees another's thread. */
export const chatThreads = pgTable(
  'chat_threads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    visitorId: uuid('visitor_id').references(() => chatVisitors.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('chat_threads_user_unique').on(t.chatId, t.userId).where(sql`${t.userId} is not null`),
    uniqueIndex('chat_threads_visitor_unique').on(t.visitorId).where(sql`${t.visitorId} is not null`),
  ],
);

/** A citation as stored with an answer: which passage `[n]` points to, and where it was. */
export interface StoredCitation {
  n: number;
  passageId: string;
  fileId: string;
  fileName: string;
  divisionId: string;
  page: number | null;
  headingPath: string[];
}

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => chatThreads.id, { onDelete: 'cascade' }),
    role: text('role').$type<'user' | 'assistant'>().notNull(),
    content: text('content').notNull(),
    status: text('status').$type<MessageStatus>().notNull().default('complete'),
    /** For an answer: the question it answers. */
    questionId: uuid('question_id'),
    errorCode: text('error_code'),
    noAnswer: boolean('no_answer').notNull().default(false),
    citations: jsonb('citations').$type<StoredCitation[]>().notNull().default([]),
    provider: text('provider').$type<AnswerProvider>(),
    model: text('model'),
    language: text('language'),
    /** Milliseconds from the question to the first token of the answer. */
    firstTokenMs: integer('first_token_ms'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('chat_messages_thread_idx').on(t.threadId, t.createdAt),
    index('chat_messages_company_idx').on(t.companyId, t.role, t.createdAt),
    // The platform's figures per day across companies (questions, answers, active users).
    index('chat_messages_created_idx').on(t.createdAt),
  ],
);

/** A company's feedback tags (managed on /tags). */
export const tags = pgTable(
  'tags',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull().default('primary'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tags_company_name_unique').on(t.companyId, sql`lower(${t.name})`)],
);

/** A cited passage as feedback keeps it: file name and page, never the text (design/product.md). */
export interface FeedbackCitation {
  n: number;
  fileId: string | null;
  fileName: string;
  page: number | null;
  passageId: string | null;
}

/**
 * Feedback on one answer, with a copy of the question, the answer and what it cited, so that the reports outlive
 * the chat.
 */
export const feedback = pgTable(
  'feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id').references(() => chatMessages.id, { onDelete: 'set null' }),
    chatId: uuid('chat_id').references(() => chats.id, { onDelete: 'set null' }),
    chatName: text('chat_name').notNull(),
    divisionIds: uuid('division_ids').array().notNull().default(sql`'{}'::uuid[]`),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    visitorId: uuid('visitor_id').references(() => chatVisitors.id, { onDelete: 'set null' }),
    origin: text('origin').$type<FeedbackOrigin>().notNull(),
    givenBy: text('given_by').notNull(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    noAnswer: boolean('no_answer').notNull().default(false),
    citations: jsonb('citations').$type<FeedbackCitation[]>().notNull().default([]),
    liked: boolean('liked'),
    mood: text('mood').$type<Mood>(),
    rating: integer('rating'),
    comment: text('comment'),
    tagId: uuid('tag_id').references(() => tags.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('feedback_message_unique').on(t.messageId),
    index('feedback_company_created_idx').on(t.companyId, t.createdAt),
    // The platform's satisfaction per day across companies.
    index('feedback_created_idx').on(t.createdAt),
  ],
);
