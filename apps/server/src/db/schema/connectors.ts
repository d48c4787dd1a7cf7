import {
  CONNECTOR_KINDS,
  CONNECTOR_STATUSES,
  CONNECTOR_SYNC_STATES,
  type ConnectorSyncResult,
} from '@werkwissen/shared';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';
import { divisions } from './knowledge.ts';
import { users } from './users.ts';

/** An item of a change feed: its name, its parent's id, and for a file its size and version. */
export interface SourceItem {
  name: string;
  parentId: string | null;
  folder: boolean;
  size: number;
  version: string;
}

/**
 * A source a division is kept in sync with (a WebDAV, Microsoft 365 or Google Drive folder). Its credentials are
 * sealed under the installation's key. `syncState` is the one place that says whether a sync waits or runs: a request
 * moves it from `idle` to `queued` in one statement (so parallel requests queue one sync), the job moves it to
 * `running` under its pg-boss job id (a retry of the same job, also after a crash, takes it over again), and its end
 * back to `idle`.
 */
export const connectors = pgTable(
  'connectors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    divisionId: uuid('division_id')
      .notNull()
      .references(() => divisions.id, { onDelete: 'cascade' }),
    /** Who connected it: mailed when it pauses. */
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: CONNECTOR_KINDS }).notNull(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    userName: text('user_name').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    /** The folder below the URL that is synced ('' for the URL itself), without leading or trailing slash. */
    folder: text('folder').notNull().default(''),
    /** File extensions taken (lower case, no dot); empty: every supported type. */
    fileTypes: text('file_types').array().notNull().default([]),
    intervalMinutes: integer('interval_minutes').notNull().default(60),
    status: text('status', { enum: CONNECTOR_STATUSES }).notNull().default('active'),
    syncState: text('sync_state', { enum: CONNECTOR_SYNC_STATES }).notNull().default('idle'),
    /** The pg-boss job holding the running sync. */
    syncJobId: text('sync_job_id'),
    syncStartedAt: timestamp('sync_started_at', { withTimezone: true }),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    lastResult: jsonb('last_result').$type<ConnectorSyncResult>(),
    /** Why the last sync (or attempt) failed as a whole: an error code. */
    lastError: text('last_error'),
    /** Whole syncs that failed in a row; at CONNECTOR_PAUSE_AFTER the connector pauses. */
    failureCount: integer('failure_count').notNull().default(0),
    /** Microsoft 365, Google Drive: the synced folder's id (its path may change, its id does not). */
    remoteFolderId: text('remote_folder_id'),
    /**
     * Where the next sync's change feed starts (null: enumerate afresh): Microsoft 365's delta link, Google Drive's
     * page token of the changes API.
     */
    syncCursor: text('sync_cursor'),
    /** Microsoft 365, Google Drive: the items as the change feed left them, by id (what `list()` answers from). */
    sourceItems: jsonb('source_items').$type<Record<string, SourceItem>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('connectors_division_idx').on(t.divisionId), index('connectors_company_idx').on(t.companyId)],
);

/**
 * The operator's Entra app registration that Microsoft 365 connectors consent to (one row, id 1): its client id and
 * its secret sealed under the installation's key, the tenant, and the identity platform's and Graph's base addresses.
 */
export const microsoftApp = pgTable('microsoft_app', {
  id: integer('id').primaryKey().default(1),
  clientId: text('client_id').notNull(),
  clientSecretSealed: text('client_secret_sealed').notNull(),
  tenant: text('tenant').notNull(),
  loginUrl: text('login_url').notNull(),
  graphUrl: text('graph_url').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/**
 * The operator's Google OAuth client that Google Drive connectors consent to (one row, id 1): its client id and its
 * secret sealed under the installation's key, and the authorization, token and Drive API addresses.
 */
export const googleApp = pgTable('google_app', {
  id: integer('id').primaryKey().default(1),
  clientId: text('client_id').notNull(),
  clientSecretSealed: text('client_secret_sealed').notNull(),
  authUrl: text('auth_url').notNull(),
  tokenUrl: text('token_url').notNull(),
  driveUrl: text('drive_url').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
});
