import { sql } from 'drizzle-orm';
import {
  check,
  customType,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * The system settings an operator changed, over the environment's values (one row). `version` grows with every
 * change (logo included), so each process sees with one cheap read whether its cached settings are current.
 */
export const systemSettings = pgTable(
  'system_settings',
  {
    id: smallint('id').primaryKey().default(1),
    values: jsonb('values').$type<Record<string, unknown>>().notNull().default({}),
    version: integer('version').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('system_settings_one_row', sql`${t.id} = 1`)],
);

/** The operator's uploaded logo (one row while there is one), served publicly at /branding/logo. */
export const systemLogo = pgTable(
  'system_logo',
  {
    id: smallint('id').primaryKey().default(1),
    content: bytea('content').notNull(),
    contentType: text('content_type').notNull(),
    sha256: text('sha256').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('system_logo_one_row', sql`${t.id} = 1`)],
);

/** E-mail templates the operator edited, per kind and language; a kind without a row uses the default text. */
export const emailTemplates = pgTable(
  'email_templates',
  {
    kind: text('kind').notNull(),
    language: text('language').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.kind, t.language] })],
);
