import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One counted event of a rate limit: a failed sign-in, a public question, a mail sent from a public form. A limit
 * is a bucket and a key (`login-failure:pair` + `email|address`); events are counted in a sliding window.
 */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('rate_limit_events_key_idx').on(t.bucket, t.key, t.createdAt),
    index('rate_limit_events_created_idx').on(t.createdAt),
  ],
);

/** Solved bot-check challenges, kept until they expire so that a solution is accepted once, by every process. */
export const spentBotChallenges = pgTable('spent_bot_challenges', {
  signature: text('signature').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
