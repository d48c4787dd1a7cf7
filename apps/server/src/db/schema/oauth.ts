import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * What the MCP authorization server (`oidc-provider`, modules/mcp-oauth) keeps: registered clients, interactions,
 * grants, authorization codes, access and refresh tokens, one row per record of a model, its payload as the library
 * wrote it. `user_id` ties a user's grants and tokens to them (deleted with the user); `grant_id` lets a revoked grant
 * take all its tokens with it.
 */
export const oauthRecords = pgTable(
  'oauth_records',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    grantId: text('grant_id'),
    uid: text('uid'),
    userCode: text('user_code'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oauth_records_grant_idx').on(t.grantId),
    index('oauth_records_uid_idx').on(t.uid),
    index('oauth_records_user_idx').on(t.userId),
    index('oauth_records_expires_idx').on(t.expiresAt),
  ],
);
