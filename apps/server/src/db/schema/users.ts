import type { AbilityRule, Language, UserKind } from '@werkwissen/shared';
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

/**
 * Roles and their CASL rules, editable by an Administrator; `kind` marks the seeded role of a user kind. `version` goes
 * up with every change of the rules (a trigger, so also for changes made straight in the database): abilities are
 * cached by role id and version.
 */
export const roles = pgTable('roles', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  kind: text('kind').$type<UserKind>().unique(),
  description: text('description').notNull().default(''),
  rules: jsonb('rules').$type<AbilityRule[]>().notNull(),
  isSystem: boolean('is_system').notNull().default(false),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every person who signs in; the kind is fixed, the permissions come from the user's roles. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<UserKind>().notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone'),
    /**
     * The digits of the phone number its user confirmed from WhatsApp (`phone-verification.service.ts`); WhatsApp
     * answers the number as the user only while `phone` has these digits. Numbers saved before confirmation existed
     * are unconfirmed (null): a number anyone else typed in may not be the user's.
     */
    phoneVerifiedDigits: text('phone_verified_digits'),
    language: text('language').$type<Language>().notNull(),
    country: text('country'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    index('users_company_idx').on(t.companyId, t.kind),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);
