import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * OpenID Connect providers the operator offers for sign-in (Google or any other): the client secret sealed with the
 * installation's ENCRYPTION_KEY, the e-mail domains it may sign in (empty: any) and the areas whose sign-in page
 * shows its button.
 */
export const signInProviders = pgTable('sign_in_providers', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind').$type<'google' | 'oidc'>().notNull(),
  name: text('name').notNull(),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  clientSecretSealed: text('client_secret_sealed'),
  allowedDomains: text('allowed_domains').array().notNull().default(sql`'{}'::text[]`),
  areas: text('areas').array().notNull().default(sql`'{}'::text[]`),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user's account at a provider, named by the ID token's issuer and subject (never by the e-mail address). */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    providerId: uuid('provider_id').references(() => signInProviders.id, { onDelete: 'set null' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('user_identities_issuer_subject_unique').on(t.issuer, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

/**
 * A sign-in (or link) on its way through the provider: PKCE verifier, state and nonce, found by the hash of the
 * token in the short-lived httpOnly `ww_oidc` cookie and spent by the first callback that names it.
 */
export const oidcFlows = pgTable('oidc_flows', {
  id: uuid('id').primaryKey().defaultRandom(),
  tokenHash: text('token_hash').notNull().unique(),
  providerId: text('provider_id').notNull(),
  state: text('state').notNull(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  area: text('area').notNull(),
  returnTo: text('return_to'),
  linkUserId: uuid('link_user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
