import { FILE_KINDS } from '@werkwissen/shared';
import { integer, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';
import { users } from './users.ts';

/**
 * A company's logo (one row while it has one): the PNG the server cut and scaled from the upload, kept in the file
 * storage under `storage_key`; shown in the company's navigation, mails and documents.
 */
export const companyLogos = pgTable('company_logos', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  storageKey: text('storage_key').notNull(),
  sha256: text('sha256').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The document a company wants every new division to start with (one row while it has one): the original, checked
 * like any upload, kept in the file storage; each new division gets a copy that is processed like an upload.
 */
export const companyDefaultDocuments = pgTable('company_default_documents', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  kind: text('kind', { enum: FILE_KINDS }).notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  sha256: text('sha256').notNull(),
  storageKey: text('storage_key').notNull(),
  uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user's guided tour, per tour version: where they were, and whether they put it aside or finished it. */
export const tourProgress = pgTable(
  'tour_progress',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: smallint('version').notNull(),
    currentStep: text('current_step'),
    skippedAt: timestamp('skipped_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.version] })],
);
